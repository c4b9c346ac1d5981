/** A card's status as SPEC.md numbers it: 1 active, 3 disabled (by the business or the provider). */
export const ACTIVE = 1;
export const DISABLED = 3;

/**
 * An expired card is disabled by its expiry (disabled_by), with expired_at set:
 * SPEC.md's status stays 1 or 3, every path that refuses a disabled card
 * refuses it, and nobody can enable it again.
 */
export const DISABLED_BY_EXPIRY = 'expiry';

/** The word for a card's state; a cancelled card (only the dashboard ever shows one) or an expired one says so whatever its status. */
export function cardStatusLabel(card: {
  status: number;
  cancelled_at?: Date | string | null;
  expired_at?: Date | string | null;
}): 'active' | 'disabled' | 'cancelled' | 'expired' {
  if (card.cancelled_at) return 'cancelled';
  if (card.expired_at) return 'expired';
  return card.status === ACTIVE ? 'active' : 'disabled';
}
