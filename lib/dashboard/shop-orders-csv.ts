import { csvFile, csvTable, type CsvColumn } from '../csv';
import type { DbOrTx } from '../db/client';
import { unitsText } from '../money-text';
import { listShopOrders, type ShopOrderRecord } from '../shop/list-orders';
import type { Mode } from '../validation';

const columns: CsvColumn<ShopOrderRecord>[] = [
  { header: 'order_reference', value: (o) => o.order_reference },
  { header: 'status', value: (o) => o.status },
  { header: 'currency', value: (o) => o.currency },
  { header: 'amount', value: (o) => unitsText(o.amount) },
  { header: 'amount_minor', value: (o) => o.amount },
  { header: 'refunded_minor', value: (o) => o.refunded_amount },
  { header: 'recipient_name', value: (o) => o.recipient.name },
  { header: 'recipient_phone', value: (o) => o.recipient.phone_number },
  { header: 'buyer_name', value: (o) => o.buyer.name },
  { header: 'buyer_phone', value: (o) => o.buyer.phone_number ?? null },
  { header: 'buyer_email', value: (o) => o.buyer.email ?? null },
  { header: 'message', value: (o) => o.message ?? null },
  { header: 'card_number', value: (o) => o.card_number ?? null },
  { header: 'payment_reference', value: (o) => o.link_reference },
  { header: 'failure_reason', value: (o) => o.failure_reason ?? null },
  { header: 'created_at_utc', value: (o) => o.created_at },
  { header: 'paid_at_utc', value: (o) => o.paid_at ?? null },
];

async function* batches(db: DbOrTx, opts: { businessId: number; mode: Mode; phone?: string }) {
  for (let page = 1; ; page++) {
    const found = await listShopOrders(db, { ...opts, page: { page, limit: 100, offset: (page - 1) * 100 } });
    if (found.items.length) yield found.items;
    if (page >= found.pages) return;
  }
}

/** The shop's orders (those the search selects) as CSV, a page per chunk; dates stay ISO 8601 in UTC. */
export function shopOrdersCsvFile(db: DbOrTx, opts: { businessId: number; mode: Mode; phone?: string }) {
  return csvFile(csvTable(columns), batches(db, opts));
}
