/** Who did something: recorded on ledger transactions, payouts and audit lines. */
export type ActorType = 'api_key' | 'user' | 'admin' | 'system';
export interface Actor {
  type: ActorType;
  id: string | null;
}
