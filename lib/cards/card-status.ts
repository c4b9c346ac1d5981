/** A card's status as SPEC.md numbers it: 1 active, 3 disabled (by the business or the provider). */
export const ACTIVE = 1;
export const DISABLED = 3;

/**
 * An expired card is disabled by its expiry (disabled_by), with expired_at set:
 * SPEC.md's status stays 1 or 3, every path that refuses a disabled card
 * refuses it, and nobody can enable it again.
 */
export const DISABLED_BY_EXPIRY = 'expiry';
