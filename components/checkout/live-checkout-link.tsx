import { useTranslations } from 'next-intl';
import { buttonClass } from '@/components/ui/button';

/** Live checkout: the customer pays on Chapa's page and comes back here; until verify settles it, they can check again. */
export function LiveCheckoutLink({ chapaUrl, checkUrl, totalLabel }: { chapaUrl: string; checkUrl: string; totalLabel: string }) {
  const t = useTranslations('Checkout.live');
  return (
    <div className="flex flex-col gap-3">
      <a href={chapaUrl} className={`${buttonClass()} w-full text-center`} data-testid="pay-with-chapa">
        {t('pay', { total: totalLabel })}
      </a>
      <p className="text-sm text-slate-600">
        {t('explain')}{' '}
        <a className="font-medium text-emerald-800 underline" href={checkUrl}>
          {t('check')}
        </a>
        .
      </p>
    </div>
  );
}
