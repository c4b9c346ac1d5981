import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendPayoutSchema } from './payout.validation';
import { normalizeCardNumber } from '../cards/card-number';

const base = { submission_id: randomUUID(), destination_type: 'card_to_card', amount: '1,000', charge_payer: 'sender' };

describe('card numbers as people paste them', () => {
  it('takes the spaced form the dashboard shows, dashes and stray spaces', () => {
    expect(normalizeCardNumber('7115 8271 5403 7173')).toBe('7115827154037173');
    expect(normalizeCardNumber(' 7115-8271-5403-7173 ')).toBe('7115827154037173');
    expect(normalizeCardNumber('7115 8271 5403 717')).toBeUndefined();
    expect(normalizeCardNumber('7115 8271 5403 717a')).toBeUndefined();
  });

  it('sends the 16 digits, and says what is wrong otherwise', () => {
    const ok = sendPayoutSchema.safeParse({ ...base, card_number: '7115 8271 5403 7173', destination_card_number: '4000-0000-0000-0002' });
    expect(ok.success && [ok.data.card_number, ok.data.destination_card_number, ok.data.amount]).toEqual(['7115827154037173', '4000000000000002', 100_000]);
    const bad = sendPayoutSchema.safeParse({ ...base, card_number: '7115 8271', destination_card_number: '' });
    expect(bad.success).toBe(false);
    const issues = Object.fromEntries((bad.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
    expect(issues).toEqual({
      card_number: 'The source card number is 16 digits (spaces and dashes are fine).',
      destination_card_number: 'Enter the destination card number.',
    });
  });
});
