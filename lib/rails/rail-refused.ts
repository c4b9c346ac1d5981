/** A rail's outright refusal of a payout: the only initiate error that may fail the payout and reverse its debit. */
export class RailRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RailRefused';
  }
}
