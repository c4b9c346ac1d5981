import { getLocale, getTranslations } from 'next-intl/server';
import Link from 'next/link';
import { TextInput } from '@/components/forms/form-controls';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { isLocale } from '@/lib/i18n/locale';
import { listShopOrders } from '@/lib/shop/list-orders';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('ShopOrders');
  return { title: t('metaTitle') };
}

const PER_PAGE = 25;

export default async function ShopOrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('history:read');
  const params = await searchParams;
  const phone = typeof params.phone === 'string' ? params.phone.slice(0, 32) : '';
  const page = Math.max(1, Math.min(10_000, Number.parseInt(String(params.page ?? '1'), 10) || 1));
  const t = await getTranslations('ShopOrders');
  const requestLocale = await getLocale();
  const locale = isLocale(requestLocale) ? requestLocale : 'en';
  const orders = await listShopOrders(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    phone: phone || undefined,
    page: { page, limit: PER_PAGE, offset: (page - 1) * PER_PAGE },
  });
  const query = (p: number) => `/shop-orders?${new URLSearchParams({ ...(phone ? { phone } : {}), page: String(p) })}`;
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          can(session.role, 'history:export') ? (
            <LinkButton variant="secondary" size="sm" href={`/shop-orders/export${phone ? `?phone=${encodeURIComponent(phone)}` : ''}`} download>
              {t('export')}
            </LinkButton>
          ) : null
        }
      />
      <form method="get" className="mb-4 flex flex-wrap items-end gap-2" aria-label={t('searchLabel')}>
        <label className="block text-sm font-medium" htmlFor="order-phone">
          {t('searchLabel')}
          <TextInput id="order-phone" name="phone" type="search" inputMode="tel" defaultValue={phone} placeholder="0911 234 567" />
        </label>
        <Button type="submit" size="sm" block={false}>
          {t('search')}
        </Button>
      </form>
      <p className="mb-2 text-sm text-slate-600">{t('count', { count: orders.total })}</p>
      <div className="rounded-xl bg-white ring-1 ring-slate-200">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th className="px-3 py-2">{t('columns.date')}</th>
              <th className="px-3 py-2">{t('columns.recipient')}</th>
              <th className="hidden px-3 py-2 sm:table-cell">{t('columns.buyer')}</th>
              <th className="px-3 py-2 text-right">{t('columns.amount')}</th>
              <th className="px-3 py-2">{t('columns.status')}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {orders.items.map((o) => (
              <tr key={o.order_reference} data-testid="shop-order-row">
                <td className="px-3 py-2">
                  <Link href={`/shop-orders/${o.order_reference}`} className="text-emerald-800 underline underline-offset-2">
                    <LocalTime iso={o.created_at} />
                  </Link>
                </td>
                <td className="px-3 py-2">
                  {o.recipient.name}
                  <span className="block break-all font-mono text-xs text-slate-600">{o.recipient.phone_number}</span>
                </td>
                <td className="hidden px-3 py-2 sm:table-cell">
                  {o.buyer.name}
                  <span className="block font-mono text-xs text-slate-600">{o.buyer.phone_number ?? o.buyer.email}</span>
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{formatMoney(o.amount, o.currency, locale)}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={o.status === 'paid' ? 'success' : o.status} label={t(`statuses.${o.status}`)} />
                  {o.refunded_amount > 0 && <span className="ml-1 text-xs text-slate-600">{t('refunded')}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders.items.length === 0 && <p className="p-4 text-sm text-slate-600">{phone ? t('noneFound') : t('none')}</p>}
      </div>
      <Pager
        label={t('pages')}
        prev={page > 1 ? { href: query(page - 1), label: t('previous') } : null}
        next={page < orders.pages ? { href: query(page + 1), label: t('next') } : null}
      />
    </>
  );
}
