import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import type { PayoutPreview } from '@/lib/actions/payout-actions';
import type { RecipientPreview } from '@/lib/payouts/recipient-preview';
import { usePayoutFailureText } from './payout-form-messages';

export function RecipientCard({ recipient: r }: { recipient: RecipientPreview }) {
  const t = useTranslations('SendMoney');
  const { recipientReason } = usePayoutFailureText();
  const reason = recipientReason(r);
  return (
    <div data-testid="recipient-card" className={`rounded-lg px-3 py-2 ring-1 ${r.canReceive ? 'bg-slate-50 ring-slate-200' : 'bg-red-50 ring-red-200'}`}>
      <p className="font-medium text-slate-900">
        {r.ownCard ? (r.holder ?? t('recipient.ownNoName')) : r.businessName}
        <span className="font-normal text-slate-700"> · {t('recipient.ending', { lastFour: r.lastFour, currency: r.currency })}</span>
      </p>
      {!r.ownCard && <p className="text-slate-700">{t('recipient.otherBusiness')}</p>}
      {reason && <p className="font-medium text-red-800">{reason}</p>}
    </div>
  );
}

export function PreviewFigures({ preview: p }: { preview: PayoutPreview }) {
  const t = useTranslations('SendMoney');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const money = (n: number) => formatMoney(n, p.currency, locale);
  if (p.amount === null) {
    return (
      <>
        <p className="text-slate-700" data-testid="preview-balance">
          {t('figures.cardHolds', { amount: money(p.balance) })}
        </p>
        <Refusals preview={p} />
      </>
    );
  }
  const rows: [string, string, string][] = [
    [t('figures.amount'), money(p.amount), 'preview-amount'],
    [t('figures.fee'), money(p.fee), 'preview-fee'],
    [t('figures.payer'), p.feeFromAmount ? t('figures.fromAmount') : t('figures.onTop'), 'preview-payer'],
    [t('figures.debit'), money(p.debit), 'preview-debit'],
    [t('figures.credit'), money(p.credit), 'preview-credit'],
    [t('figures.balance'), money(p.balance), 'preview-balance'],
  ];
  return (
    <>
      <dl className="space-y-1.5">
        {rows.map(([label, value, id]) => (
          <div key={id} className="flex justify-between gap-3">
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
  const { refusalText } = usePayoutFailureText();
  if (p.refusals.length === 0) return null;
  return (
    <ul className="mt-3 space-y-1 font-medium text-red-700" data-testid="preview-refusals">
      {p.refusals.map((r) => (
        <li key={`${r.code} ${r.field}`}>{refusalText(r, p)}</li>
      ))}
    </ul>
  );
}
