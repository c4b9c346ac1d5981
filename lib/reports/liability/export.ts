import type { DbOrTx } from '../../db/client';
import { csvTable, timeColumn, wallClockFormatter, type CsvColumn } from '../../csv';
import { unitsText } from '../../money-text';
import type { Currency } from '../../validation';
import { AGE_BUCKETS, type DormantCard, type DormantCardsOptions, type LiabilityOptions } from './definitions';
import { dormantCardBatches, liabilityReport } from './query';

interface AgedCsvRow {
  day: string;
  currency: Currency;
  bucket: string;
  from: number | null;
  to: number | null;
  cards: number;
  balance: number;
}

/**
 * The aged summary as CSV: one line per currency and bucket and a total line
 * per currency; the day is the business's, named by its zone.
 */
export async function agedCsvFile(db: DbOrTx, opts: LiabilityOptions) {
  const report = await liabilityReport(db, opts);
  const columns: CsvColumn<AgedCsvRow>[] = [
    { header: timeColumn('as_of_end_of_day', opts.timeZone), value: (r) => r.day },
    { header: 'currency', value: (r) => r.currency },
    { header: 'days_since_last_activity', value: (r) => r.bucket },
    { header: 'days_from', value: (r) => r.from },
    { header: 'days_to', value: (r) => r.to },
    { header: 'cards', value: (r) => r.cards },
    { header: 'balance', value: (r) => unitsText(r.balance) },
    { header: 'balance_minor', value: (r) => r.balance },
  ];
  const table = csvTable(columns);
  const rows = report.currencies.flatMap((c): AgedCsvRow[] => [
    ...AGE_BUCKETS.map((b, i) => ({ day: opts.day, currency: c.currency, bucket: b.key, from: b.from, to: b.to, ...c.buckets[i] })),
    { day: opts.day, currency: c.currency, bucket: 'total', from: null, to: null, cards: c.cards, balance: c.balance },
  ]);
  return {
    header: table.header,
    chunks: (async function* () {
      if (rows.length) yield rows.map(table.line).join('');
    })(),
  };
}

/** The dormant list as CSV, in the page's order, a keyset batch per chunk; times on the business's wall clock, zone named. */
export function dormantCsvFile(db: DbOrTx, opts: Omit<DormantCardsOptions, 'after' | 'before' | 'limit'>) {
  const clock = wallClockFormatter(opts.timeZone);
  const columns: CsvColumn<DormantCard>[] = [
    { header: 'card_number', value: (c) => c.cardNumber },
    { header: 'holder_name', value: (c) => c.holderName },
    { header: 'currency', value: (c) => c.currency },
    { header: 'balance', value: (c) => unitsText(c.balance) },
    { header: 'balance_minor', value: (c) => c.balance },
    { header: timeColumn('last_activity', opts.timeZone), value: (c) => clock(c.lastActivityAt) },
    { header: 'days_since_last_activity', value: (c) => c.daysSinceActivity },
    { header: timeColumn('as_of_end_of_day', opts.timeZone), value: () => opts.day },
    { header: 'dormant_after_days', value: () => opts.dormantDays },
  ];
  const table = csvTable(columns);
  return {
    header: table.header,
    chunks: (async function* () {
      for await (const batch of dormantCardBatches(db, opts)) yield batch.map(table.line).join('');
    })(),
  };
}
