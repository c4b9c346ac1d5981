/** A card's status as SPEC.md numbers it: 1 active, 3 disabled (by the business or the provider). */
export const ACTIVE = 1;
export const DISABLED = 3;
