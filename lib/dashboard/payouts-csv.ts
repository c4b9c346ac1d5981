import type { DbOrTx } from '../db/client';
import type { PayoutRow } from '../payouts/payout-view';
import type { Mode } from '../validation';
import { csvTable, timeColumn, unitsText, wallClockFormatter, type CsvColumn } from './csv';
import { payoutNet } from './net-amount';
import { payoutBatches, type PayoutFilters } from './search-payouts';

/**
 * The payouts export of a business in its zone. Amounts twice: in currency
 * units for people ("100.00") and in minor units for machines ("10000").
 * net is what left the card (lib/dashboard/net-amount.ts).
 */
export function payoutCsv(timeZone: string) {
  const clock = wallClockFormatter(timeZone);
  const columns: CsvColumn<PayoutRow>[] = [
    { header: 'reference', value: (p) => p.reference },
    { header: 'payout_type', value: (p) => p.payoutType },
    { header: 'ledger_topup', value: (p) => p.isLedgerTopup },
    { header: 'status', value: (p) => p.status },
    { header: 'currency', value: (p) => p.currency },
    { header: 'amount', value: (p) => unitsText(p.amount) },
    { header: 'fee', value: (p) => unitsText(p.serviceFee) },
    { header: 'net', value: (p) => unitsText(payoutNet(p)) },
    { header: 'amount_minor', value: (p) => p.amount },
    { header: 'fee_minor', value: (p) => p.serviceFee },
    { header: 'net_minor', value: (p) => payoutNet(p) },
    { header: 'charge_payer', value: (p) => p.chargePayer },
    { header: 'source_card_number', value: (p) => p.sourceCardNumber },
    { header: 'destination_card_number', value: (p) => p.destinationCardNumber },
    { header: 'merchant_id', value: (p) => p.merchantId },
    { header: 'bank_slug', value: (p) => p.bankSlug },
    { header: 'account_number', value: (p) => p.accountNumber },
    { header: 'account_name', value: (p) => p.accountName },
    { header: 'failure_reason', value: (p) => p.failureReason },
    { header: timeColumn('created_at', timeZone), value: (p) => clock(p.createdAt) },
    { header: timeColumn('updated_at', timeZone), value: (p) => clock(p.updatedAt) },
    { header: timeColumn('completed_at', timeZone), value: (p) => clock(p.completedAt) },
    { header: 'created_at_utc', value: (p) => new Date(p.createdAt).toISOString() },
  ];
  return csvTable(columns);
}

export interface PayoutCsvFileOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  filters: PayoutFilters;
}

/** The header and the lines of the filtered payouts, a keyset batch per chunk: never the whole set in memory. */
export function payoutCsvFile(db: DbOrTx, opts: PayoutCsvFileOptions) {
  const table = payoutCsv(opts.timeZone);
  return {
    header: table.header,
    chunks: (async function* () {
      for await (const batch of payoutBatches(db, opts, 1000)) yield batch.map(table.line).join('');
    })(),
  };
}
