import type { DbOrTx } from '../db/client';
import type { PayoutRow } from '../payouts/payout-view';
import type { Mode } from '../validation';
import { csvFile, csvTable, moneyColumns, recordTimeColumns, type CsvColumn } from '../csv';
import { payoutNet } from './net-amount';
import { payoutBatches, type PayoutFilters } from './search-payouts';

/**
 * The payouts export of a business in its zone. Amounts twice: in currency
 * units for people ("100.00") and in minor units for machines ("10000").
 * net is what left the card (lib/dashboard/net-amount.ts).
 */
function payoutCsv(timeZone: string) {
  const columns: CsvColumn<PayoutRow>[] = [
    { header: 'reference', value: (p) => p.reference },
    { header: 'payout_type', value: (p) => p.payoutType },
    { header: 'ledger_topup', value: (p) => p.isLedgerTopup },
    { header: 'status', value: (p) => p.status },
    { header: 'currency', value: (p) => p.currency },
    ...moneyColumns<PayoutRow>((p) => ({ amount: p.amount, fee: p.serviceFee, net: payoutNet(p) })),
    { header: 'charge_payer', value: (p) => p.chargePayer },
    { header: 'source_card_number', value: (p) => p.sourceCardNumber },
    { header: 'destination_card_number', value: (p) => p.destinationCardNumber },
    { header: 'merchant_id', value: (p) => p.merchantId },
    { header: 'bank_slug', value: (p) => p.bankSlug },
    { header: 'account_number', value: (p) => p.accountNumber },
    { header: 'account_name', value: (p) => p.accountName },
    { header: 'failure_reason', value: (p) => p.failureReason },
    ...recordTimeColumns<PayoutRow>(timeZone),
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
  return csvFile(payoutCsv(opts.timeZone), payoutBatches(db, opts, 1000));
}
