import type { DbOrTx } from '../db/client';
import type { Payment } from '../payments/payment-view';
import type { Mode } from '../validation';
import { csvTable, timeColumn, unitsText, wallClockFormatter, type CsvColumn } from './csv';
import { paymentNet } from './net-amount';
import { paymentBatches, type PaymentFilters } from './search-payments';

/**
 * The payments export of a business in its zone, amounts in currency units
 * and in minor units. The customer paid amount + fee; net is what the card
 * received (lib/dashboard/net-amount.ts).
 */
export function paymentCsv(timeZone: string) {
  const clock = wallClockFormatter(timeZone);
  const columns: CsvColumn<Payment>[] = [
    { header: 'reference', value: (p) => p.linkReference },
    { header: 'merchant_reference', value: (p) => p.merchantReference },
    { header: 'provider_reference', value: (p) => p.providerReference },
    { header: 'type', value: (p) => p.type },
    { header: 'status', value: (p) => p.status },
    { header: 'currency', value: (p) => p.currency },
    { header: 'amount', value: (p) => unitsText(p.amount) },
    { header: 'fee', value: (p) => unitsText(p.serviceFee) },
    { header: 'net', value: (p) => unitsText(paymentNet(p)) },
    { header: 'amount_minor', value: (p) => p.amount },
    { header: 'fee_minor', value: (p) => p.serviceFee },
    { header: 'net_minor', value: (p) => paymentNet(p) },
    { header: 'payment_method', value: (p) => p.paymentMethod },
    { header: 'card_number', value: (p) => p.cardNumber },
    { header: 'failure_reason', value: (p) => p.failureReason },
    { header: timeColumn('created_at', timeZone), value: (p) => clock(p.createdAt) },
    { header: timeColumn('updated_at', timeZone), value: (p) => clock(p.updatedAt) },
    { header: timeColumn('completed_at', timeZone), value: (p) => clock(p.completedAt) },
    { header: 'created_at_utc', value: (p) => new Date(p.createdAt).toISOString() },
  ];
  return csvTable(columns);
}

export interface PaymentCsvFileOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  filters: PaymentFilters;
}

/** The header and the lines of the filtered payments, a keyset batch per chunk: never the whole set in memory. */
export function paymentCsvFile(db: DbOrTx, opts: PaymentCsvFileOptions) {
  const table = paymentCsv(opts.timeZone);
  return {
    header: table.header,
    chunks: (async function* () {
      for await (const batch of paymentBatches(db, opts, 1000)) yield batch.map(table.line).join('');
    })(),
  };
}
