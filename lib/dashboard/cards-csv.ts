import { cardStatusLabel } from '../cards/card-status';
import type { CardRow } from '../cards/card-view';
import type { DbOrTx } from '../db/client';
import { csvFile, csvTable, timeColumn, wallClockFormatter, type CsvColumn } from '../csv';
import { unitsText } from '../money-text';
import { searchCards, type SearchCardsOptions } from './search-cards';

/** The cards export of a business in its zone: balance and held in currency units and in minor units. */
function cardCsv(timeZone: string) {
  const clock = wallClockFormatter(timeZone);
  const columns: CsvColumn<CardRow>[] = [
    { header: 'card_number', value: (c) => c.card_number },
    { header: 'ref_id', value: (c) => c.ref_id },
    { header: 'status', value: (c) => cardStatusLabel(c) },
    { header: 'currency', value: (c) => c.currency },
    { header: 'balance', value: (c) => unitsText(Number(c.balance)) },
    { header: 'held', value: (c) => unitsText(Number(c.held)) },
    { header: 'balance_minor', value: (c) => Number(c.balance) },
    { header: 'held_minor', value: (c) => Number(c.held) },
    { header: 'first_name', value: (c) => c.first_name },
    { header: 'last_name', value: (c) => c.last_name },
    { header: 'phone_number', value: (c) => c.phone_number },
    { header: 'email', value: (c) => c.email },
    { header: timeColumn('created_at', timeZone), value: (c) => clock(c.created_at) },
    { header: timeColumn('expires_at', timeZone), value: (c) => clock(c.expires_at) },
    { header: timeColumn('cancelled_at', timeZone), value: (c) => clock(c.cancelled_at) },
    { header: 'created_at_utc', value: (c) => new Date(c.created_at).toISOString() },
  ];
  return csvTable(columns);
}

export type CardCsvFileOptions = Pick<SearchCardsOptions, 'businessId' | 'mode' | 'country' | 'query' | 'status'> & { timeZone: string };

/** The list's own query (the same search and status), walked by its keyset a thousand cards at a time. */
async function* cardBatches(db: DbOrTx, opts: CardCsvFileOptions): AsyncGenerator<CardRow[]> {
  let after: number | undefined;
  for (;;) {
    const page = await searchCards(db, { ...opts, after, limit: 1000 });
    if (page.items.length) yield page.items;
    if (page.nextAfter === null) return;
    after = page.nextAfter;
  }
}

/** The header and the lines of the cards the list's search and status select, newest first, a batch per chunk. */
export function cardCsvFile(db: DbOrTx, opts: CardCsvFileOptions) {
  return csvFile(cardCsv(opts.timeZone), cardBatches(db, opts));
}
