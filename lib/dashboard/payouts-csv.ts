import { csvLine } from './csv';
import { isoInZone } from './time-zone';
import type { PayoutRow } from '../payouts/payout-view';

export const PAYOUT_CSV_COLUMNS = [
  'reference',
  'payout_type',
  'ledger_topup',
  'status',
  'currency',
  'amount',
  'service_fee',
  'charge_payer',
  'source_card_number',
  'destination_card_number',
  'merchant_id',
  'bank_slug',
  'account_number',
  'account_name',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

/** One payout as a CSV line; times carry the business's zone offset, so a spreadsheet shows the business's day. */
export function payoutCsvRow(p: PayoutRow, timeZone: string): string {
  const iso = (d: Date | null) => (d ? isoInZone(timeZone, new Date(d)) : null);
  const cells = [
    p.reference,
    p.payoutType,
    p.isLedgerTopup,
    p.status,
    p.currency,
    p.amount,
    p.serviceFee,
    p.chargePayer,
    p.sourceCardNumber,
    p.destinationCardNumber,
    p.merchantId,
    p.bankSlug,
    p.accountNumber,
    p.accountName,
    iso(p.createdAt),
    iso(p.updatedAt),
    iso(p.completedAt),
  ];
  return csvLine(cells);
}

export const payoutCsvHeader = () => `${PAYOUT_CSV_COLUMNS.join(',')}\r\n`;
