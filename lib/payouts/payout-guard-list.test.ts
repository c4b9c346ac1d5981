import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payoutChunkStatement } from '../batches/payouts-chunk-statement';
import { compile } from '../db/prepared';
import { PAYOUT_DAY_LIMIT, PAYOUT_GUARDS, type PayoutValue } from './payout-guard-list';
import { payoutStatements } from './payout-statement';

// Parameter numbers differ between a fragment compiled alone and inside its statement: compared without them.
const unnumbered = (t: string) => t.replace(/\$\d+/g, '$');
const text = (fragment: SQL) => unnumbered(compile(fragment).text);
const single: PayoutValue = sql.placeholder;
// The chunk statement's item columns, as its own `v` names them.
const chunk: PayoutValue = (name) => sql.raw(`i."${name}"`);
const chunkText = unnumbered(payoutChunkStatement().text);

describe('the payout guard list', () => {
  it('declares each guard once, with its single and its chunk form', () => {
    expect(PAYOUT_GUARDS.length).toBeGreaterThan(0);
    expect(new Set(PAYOUT_GUARDS.map((g) => g.code)).size).toBe(PAYOUT_GUARDS.length);
    for (const g of PAYOUT_GUARDS) {
      expect(typeof g.single, `${g.code} has no single form`).toBe('function');
      expect(typeof g.chunk, `${g.code} has no chunk form`).toBe('function');
      expect(text(g.single(single)).trim(), g.code).not.toBe('');
      expect(text(g.chunk(chunk)).trim(), g.code).not.toBe('');
    }
  });

  it.each(Object.entries(payoutStatements))('is checked whole by the payout statement %s', (_, statement) => {
    const t = unnumbered(statement().text);
    for (const g of PAYOUT_GUARDS) expect(t, `the single statement has no ${g.code}`).toContain(text(g.single(single)));
    expect(t).toContain(text(PAYOUT_DAY_LIMIT.single(single).ctes));
  });

  it('is checked whole by the chunk statement', () => {
    for (const g of PAYOUT_GUARDS) expect(chunkText, `the chunk statement has no ${g.code}`).toContain(text(g.chunk(chunk)));
    expect(chunkText).toContain(text(PAYOUT_DAY_LIMIT.chunk().ctes));
  });

  it("checks a chunk's credited cards against max_card_balance on every credit and none of the debits", () => {
    // The chunk's worst case for a card it credits: a debit later in the chunk cannot make room for an earlier credit.
    const maxCardBalance = PAYOUT_GUARDS.find((g) => g.code === 'max_card_balance')!;
    expect(text(maxCardBalance.chunk(chunk))).toContain('FROM "credits"');
    expect(text(maxCardBalance.single(single))).toContain('FROM "moves"');
  });
});
