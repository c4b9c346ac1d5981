// Recognised by brand, not class: the adapter that throws it may be another copy of this module (see ServiceError).
const RAIL_REFUSED = Symbol.for('giftcard.RailRefused');

/** A rail's outright refusal of a payout: the only initiate error that may fail the payout and reverse its debit. */
export class RailRefused extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && RAIL_REFUSED in value;
  }

  readonly [RAIL_REFUSED] = true;

  constructor(message: string) {
    super(message);
    this.name = 'RailRefused';
  }
}
