import { unitsText } from '@/lib/money-text';
import type { FeeKind } from '@/lib/fees/fee-schedule';
import { EmptyState } from '@/components/ui/page-header';

/** Every payout type in the same words as the payout form and page (Payouts.feePayers in the catalogues): sender pays or recipient pays. */
const PAYOUT_PAYER = 'Sender pays (added on top) or recipient pays (taken from the amount), chosen per payout';
const KIND_WORDS: Record<FeeKind, { what: string; payer: string }> = {
  card_to_card: { what: 'Card-to-card payouts', payer: PAYOUT_PAYER },
  b2b: { what: 'Payouts to another business', payer: PAYOUT_PAYER },
  bank: { what: 'Bank and wallet payouts', payer: PAYOUT_PAYER },
  payment: { what: 'Payments (checkout links, wallet charges)', payer: 'The customer, on top of the amount' },
  redemption: { what: 'Card redemptions at your tills', payer: 'Your business, out of what it receives' },
};

export interface FeeScheduleRow {
  kind: FeeKind;
  percent: string;
  fixed: number;
  min: number | null;
  max: number | null;
}

/** "1.5% + 2.00, at least 1.00, at most 50.00": amounts in the currency of the payment or payout the fee is on. */
function terms(r: FeeScheduleRow): string {
  const parts = [r.percent !== '0' || r.fixed === 0 ? `${r.percent}%` : '', r.fixed ? unitsText(r.fixed) : ''].filter(Boolean).join(' + ');
  const bounds = [r.min !== null ? `at least ${unitsText(r.min)}` : '', r.max !== null ? `at most ${unitsText(r.max)}` : ''].filter(Boolean);
  return [parts, ...bounds].join(', ');
}

/** The service fees the provider set for this business and mode: read-only here, changed by the back office. */
export function FeeSchedule({ rules, mode }: { rules: FeeScheduleRow[]; mode: string }) {
  if (rules.length === 0) return <EmptyState title="No fees">Nothing is charged on payments or payouts in {mode} mode.</EmptyState>;
  return (
    <>
      <table className="w-full text-sm" data-testid="fee-schedule">
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="py-1 pr-3 font-medium">
              On
            </th>
            <th scope="col" className="py-1 pr-3 font-medium">
              Fee
            </th>
            <th scope="col" className="py-1 font-medium">
              Who pays
            </th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => (
            <tr key={r.kind} className="border-t border-slate-100 align-top" data-testid={`fee-${r.kind}`}>
              <td className="py-2 pr-3 font-medium text-slate-900">{KIND_WORDS[r.kind].what}</td>
              <td className="py-2 pr-3 tabular-nums">{terms(r)}</td>
              <td className="py-2 text-slate-700">{KIND_WORDS[r.kind].payer}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-slate-600">Amounts are in the currency of the payment or payout. To change a fee, ask your provider.</p>
    </>
  );
}
