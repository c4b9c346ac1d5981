import { describe, expect, it } from 'vitest';
import { clientMessages } from './client-messages';

describe('clientMessages', () => {
  it('keeps the listed namespaces and single messages, nested as in the catalogue, and nothing else', () => {
    const picked = clientMessages({
      Nav: { cards: 'Cards' },
      Shop: { eyebrow: 'Gift', testMode: 'Test', form: { pay: 'Pay' }, headline: 'Not sent' },
      Docs: { title: 'Not sent' },
    });
    expect(picked).toEqual({ Nav: { cards: 'Cards' }, Shop: { eyebrow: 'Gift', testMode: 'Test', form: { pay: 'Pay' } } });
  });
});
