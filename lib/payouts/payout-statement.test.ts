import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payouts } from '../db/schema';
import { payoutStatements } from './payout-statement';

// The statement names the payouts columns by hand (it is compiled once, not built by Drizzle), while create-transfer inserts through Drizzle.
const tableColumns = Object.values(getTableColumns(payouts));

function writtenColumns(text: string): string[] {
  const list = /INSERT INTO payouts \(([^)]*)\)/.exec(text)?.[1];
  if (list === undefined) throw new Error('the statement has no INSERT INTO payouts');
  return list.split(',').map((c) => c.trim());
}

describe.each(Object.entries(payoutStatements))('the payout statement %s', (_, statement) => {
  const written = writtenColumns(statement().text);

  it('writes only columns of the payouts table, each once', () => {
    const names = new Set(tableColumns.map((c) => c.name));
    expect(written.filter((c) => !names.has(c))).toEqual([]);
    expect(new Set(written).size).toBe(written.length);
  });

  it('writes every NOT NULL column that has no default', () => {
    const required = tableColumns.filter((c) => c.notNull && !c.hasDefault).map((c) => c.name);
    expect(required.filter((c) => !written.includes(c))).toEqual([]);
  });

  it('leaves only the id, the top-up flag and the failure reason (set when a payout fails) to their defaults', () => {
    // A column added to the table fails here until the statement writes it or it is added to this list.
    expect(tableColumns.map((c) => c.name).filter((c) => !written.includes(c))).toEqual(['id', 'is_ledger_topup', 'failure_reason']);
  });
});
