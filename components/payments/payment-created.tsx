import Link from 'next/link';
import { useLocale, useTranslations } from 'next-intl';
import { CopyField } from '@/components/ui/copy-field';
import { formatMoney } from '@/components/ui/money';
import type { CreatedPayment } from '@/lib/payments/create-payment';

/** A started payment: what the customer pays, then the checkout link to share or what the wallet charge awaits. */
export function PaymentCreated({ created }: { created: CreatedPayment }) {
  const t = useTranslations('NewPayment');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const money = (n: number) => formatMoney(n, created.currency, locale);
  return (
    <section
      aria-labelledby="created-heading"
      className="space-y-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="payment-created"
    >
      <h2 id="created-heading" className="text-lg font-semibold text-slate-900">
        {t('created.title')}
      </h2>
      <p className="text-sm text-slate-700">
        {t.rich('created.summary', {
          amount: money(created.amount),
          card: created.card_number,
          total: money(created.amount + created.service_fee),
          fee: money(created.service_fee),
          mono: (chunks) => <span className="font-mono">{chunks}</span>,
        })}
      </p>
      {created.checkout_url ? (
        <CopyField id="checkout-url" label={t('created.link')} value={created.checkout_url} copyLabel={t('created.copy')} />
      ) : created.next_action ? (
        <p className="text-sm text-slate-700" data-testid="next-action" data-type={created.next_action.type}>
          <span className="font-medium">{t('created.next')} </span>
          <span className="[overflow-wrap:anywhere]">{locale === 'en' ? created.next_action.message : t(`created.actions.${created.next_action.type}`)}</span>
        </p>
      ) : (
        <p className="text-sm text-slate-700">{t('created.sent', { wallet: created.payment_method ?? '' })}</p>
      )}
      <Link
        href={`/payments/${created.link_reference}`}
        className="inline-block text-sm font-medium text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700"
      >
        {t('created.view', { reference: created.link_reference })}
      </Link>
    </section>
  );
}
