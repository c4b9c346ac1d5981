import { describe, expect, it } from 'vitest';
import { cardContracts } from './contracts/cards';
import { paymentContracts } from './contracts/payments';
import { contractResult } from './contract-result';

describe('contractResult', () => {
  it('answers with the status and the one message its contract declares', () => {
    expect(contractResult(paymentContracts.createPayment, { data: { link_reference: 'pay_1' } })).toEqual({
      status: 201,
      message: 'Payment initiated successfully',
      data: { link_reference: 'pay_1' },
    });
    expect(contractResult(cardContracts.cancelCard, { data: null })).toEqual({ status: 200, message: 'Gift card cancelled successfully', data: null });
  });

  it('takes the handler’s message where the contract names several, and only one of those', () => {
    expect(contractResult(cardContracts.setCardStatus, { message: 'Gift card enabled successfully', data: null }).message).toBe(
      'Gift card enabled successfully',
    );
    expect(() => contractResult(cardContracts.setCardStatus, { data: null })).toThrow('setCardStatus answered a message its contract does not name');
    expect(() => contractResult(cardContracts.getCard, { message: 'Card found', data: null })).toThrow(
      'getCard answered a message its contract does not name: Card found',
    );
  });
});
