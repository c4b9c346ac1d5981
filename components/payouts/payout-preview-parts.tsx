import { formatMoney } from '@/components/ui/money';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';

export function RecipientCard({ recipient: r }: { recipient: RecipientPreview }) {
  return (
    <div data-testid="recipient-card" className={`rounded-lg px-3 py-2 ring-1 ${r.canReceive ? 'bg-slate-50 ring-slate-200' : 'bg-red-50 ring-red-200'}`}>
      <p className="font-medium text-slate-900">
        {r.ownCard ? (r.holder ?? 'One of your cards, no name on file') : r.businessName}
        <span className="font-normal text-slate-700">
          {' '}
          · card ending {r.lastFour} · {r.currency}
        </span>
      </p>
      {!r.ownCard && <p className="text-slate-700">A card of another business; its holder’s name is that business’s to show.</p>}
      {r.reason && <p className="font-medium text-red-800">{r.reason}</p>}
    </div>
  );
}

export function PreviewFigures({ preview: p }: { preview: PayoutPreview }) {
  const money = (n: number) => formatMoney(n, p.currency);
  if (p.amount === null) {
    return (
      <>
        <p className="text-slate-700" data-testid="preview-balance">
          The card holds {money(p.balance)}.
        </p>
        <Refusals preview={p} />
      </>
    );
  }
  const rows: [string, string, string][] = [
    ['Amount', money(p.amount), 'preview-amount'],
    ['Service fee', money(p.fee), 'preview-fee'],
    ['Fee', p.feeFromAmount ? 'Taken from the amount' : 'Added on top', 'preview-payer'],
    ['Leaves the card', money(p.debit), 'preview-debit'],
    ['The destination gets', money(p.credit), 'preview-credit'],
    ['Card balance now', money(p.balance), 'preview-balance'],
  ];
  return (
    <>
      <dl className="space-y-1.5">
        {rows.map(([label, value, id]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-right font-medium tabular-nums text-slate-900" data-testid={id}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <Refusals preview={p} />
    </>
  );
}

function Refusals({ preview: p }: { preview: PayoutPreview }) {
  if (p.refusals.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1 font-medium text-red-700" data-testid="preview-refusals">
      {p.refusals.map((r) => (
        <li key={`${r.code} ${r.field}`}>{r.message}</li>
      ))}
    </ul>
  );
}
