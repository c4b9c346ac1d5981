import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';

export interface TestPaymentButtonsProps {
  reference: string;
  /** The page's `?lang`, when it has one: the page it comes back to keeps it. */
  lang?: string;
  /** The card link the payment was started from, when it was: the page it comes back to keeps the way back. */
  card?: string;
  totalLabel: string;
  action: (formData: FormData) => Promise<void>;
}

/** The sandbox stands in for the customer's card or wallet: each button is one outcome a processor could report. */
export function TestPaymentButtons({ reference, lang, card, totalLabel, action }: TestPaymentButtonsProps) {
  const t = useTranslations('Checkout.test');
  return (
    <section aria-labelledby="test-mode-title" className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 p-4">
      <h2 id="test-mode-title" className="flex flex-wrap items-center gap-2 font-semibold text-amber-900">
        <span className="rounded bg-amber-400 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-amber-950">{t('badge')}</span>
        {t('title')}
      </h2>
      <p className="mt-1 text-sm text-amber-900">{t('text')}</p>
      <form action={action} className="mt-4 flex flex-col gap-3">
        <input type="hidden" name="reference" value={reference} />
        {lang && <input type="hidden" name="lang" value={lang} />}
        {card && <input type="hidden" name="card" value={card} />}
        <Button type="submit" name="outcome" value="success" variant="primary">
          {t('pay', { total: totalLabel })}
        </Button>
        <Button type="submit" name="outcome" value="failed" variant="danger">
          {t('fail')}
        </Button>
        <Button type="submit" name="outcome" value="cancelled" variant="secondary">
          {t('cancel')}
        </Button>
      </form>
    </section>
  );
}
