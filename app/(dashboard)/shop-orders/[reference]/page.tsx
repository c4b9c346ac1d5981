import { getLocale, getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { LinkButton } from '@/components/ui/link-button';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { isLocale } from '@/lib/i18n/locale';
import { orderMessages } from '@/lib/messages/order-messages';
import { getShopOrder } from '@/lib/shop/list-orders';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('ShopOrders');
  return { title: t('detail.metaTitle') };
}

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="py-2">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 break-words" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** One shop order: who bought it for whom, the message as text, the card it credited, its payment (where it is refunded). */
export default async function ShopOrderPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const { reference } = await params;
  const order = await getShopOrder(getDb(), { businessId: session.businessId, mode: session.mode, reference });
  if (!order) notFound();
  const [t, card, kinds] = await Promise.all([getTranslations('ShopOrders'), getTranslations('Card'), getTranslations('Settings')]);
  const messages = await orderMessages(getDb(), { businessId: session.businessId, mode: session.mode, orderReference: reference });
  const requestLocale = await getLocale();
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const refundable = order.status === 'paid' && order.refunded_amount < order.amount && can(session.role, 'payments:refund');
  return (
    <>
      <PageHeader
        title={t('detail.title', { amount: formatMoney(order.amount, order.currency, locale) })}
        back={{ href: '/shop-orders', label: t('detail.all') }}
        actions={
          refundable ? (
            <span data-testid="refund-order">
              <LinkButton variant="danger" size="sm" href={`/payments/${order.link_reference}`}>
                {t('detail.refund')}
              </LinkButton>
            </span>
          ) : null
        }
      />
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title={t('detail.order')}>
          <dl className="divide-y divide-slate-100 text-sm">
            <Field label={t('columns.status')}>
              <StatusBadge status={order.status === 'paid' ? 'success' : order.status} label={t(`statuses.${order.status}`)} />
              {order.refunded_amount > 0 && (
                <span className="ml-2 text-slate-700" data-testid="order-refunded">
                  {t('detail.refundedAmount', { amount: formatMoney(order.refunded_amount, order.currency, locale) })}
                </span>
              )}
            </Field>
            {order.failure_reason && <Field label={t('detail.failure')}>{order.failure_reason}</Field>}
            <Field label={t('columns.date')}>
              <LocalTime iso={order.created_at} />
            </Field>
            {order.paid_at && (
              <Field label={t('detail.paidAt')}>
                <LocalTime iso={order.paid_at} />
              </Field>
            )}
            <Field label={t('detail.reference')}>
              <span className="font-mono text-xs">{order.order_reference}</span>
            </Field>
            <Field label={t('detail.payment')}>
              <Link href={`/payments/${order.link_reference}`} className="font-mono text-xs text-emerald-800 underline underline-offset-2">
                {order.link_reference}
              </Link>
            </Field>
            <Field label={t('detail.card')}>
              {order.card_number ? (
                <Link href={`/cards/${order.card_number}`} className="font-mono text-emerald-800 underline underline-offset-2" data-testid="order-card">
                  {order.card_number}
                </Link>
              ) : (
                t('detail.noCard')
              )}
            </Field>
          </dl>
        </Panel>
        <Panel title={t('detail.people')}>
          <dl className="divide-y divide-slate-100 text-sm">
            <Field label={t('columns.recipient')}>
              {order.recipient.name} · <span className="font-mono">{order.recipient.phone_number}</span>
            </Field>
            <Field label={t('columns.buyer')}>
              {order.buyer.name} · <span className="font-mono">{order.buyer.phone_number ?? order.buyer.email}</span>
            </Field>
            <Field label={t('detail.message')} testId="order-message">
              {order.message ? <span className="whitespace-pre-wrap">{order.message}</span> : t('detail.noMessage')}
            </Field>
          </dl>
        </Panel>
      </div>
      <div className="mt-4">
        <Panel title={t('detail.messages')}>
          {messages.length === 0 ? (
            <p className="text-sm text-slate-600">{t('detail.noMessages')}</p>
          ) : (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="order-messages">
              {messages.map((m) => (
                <li key={m.message_reference} className="py-3" data-testid={`order-message-${m.kind}`}>
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-600">
                    <LocalTime iso={m.created_at} />
                    <span className="font-medium text-slate-900">{kinds(`messageKinds.${m.kind}`)}</span>
                    <span>
                      {m.channel === 'sms' ? card('channelSms') : card('channelEmail')} {m.to}
                    </span>
                    <StatusBadge status={m.status} label={card(`messageStatuses.${m.status}`)} />
                  </div>
                  {m.text && <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{m.text}</p>}
                  {m.error && <p className="mt-1 break-words text-red-700">{m.error}</p>}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
