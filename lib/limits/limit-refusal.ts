import { ServiceError } from '../errors';
import { groupedUnitsText } from '../money-text';

export const LIMIT_NAMES = ['max_payout', 'daily_payout', 'max_card_balance'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** What a money statement says when a limit refused it: which one, and its value in minor units. */
export interface LimitExceeded {
  limit: LimitName;
  value: number;
}

const SENTENCES: Record<LimitName, (value: string) => string> = {
  max_payout: (v) => `This payout exceeds the maximum payout limit of ${v}.`,
  daily_payout: (v) => `This payout exceeds the daily payout limit of ${v} for today.`,
  max_card_balance: (v) => `This would take the card over its maximum card balance limit of ${v}.`,
};

/** The one answer for a refusal by a limit: 400 Limit exceeded, the limit named with its value in currency units. */
export function limitExceededError(exceeded: LimitExceeded, currency: string): ServiceError {
  return new ServiceError('limit_exceeded', SENTENCES[exceeded.limit](`${groupedUnitsText(Number(exceeded.value))} ${currency}`), { field: 'amount' });
}
