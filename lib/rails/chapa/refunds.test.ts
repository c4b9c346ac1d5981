import { describe, expect, it } from 'vitest';
import { saysReferenceUsed } from './refunds';

describe('saysReferenceUsed', () => {
  it('reads only a positive "already used" as the earlier send having arrived', () => {
    expect(saysReferenceUsed('Refund reference has been used before')).toBe(true);
    expect(saysReferenceUsed('Duplicate reference')).toBe(true);
    expect(saysReferenceUsed('reference already exists')).toBe(true);
    // A refusal saying Chapa does not know the reference must not settle the refund as paid.
    expect(saysReferenceUsed('Transaction reference does not exist')).toBe(false);
    expect(saysReferenceUsed('Reference not found')).toBe(false);
    expect(saysReferenceUsed('This transaction has already been refunded in full')).toBe(false);
  });
});
