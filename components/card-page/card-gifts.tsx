import { useTranslations } from 'next-intl';

export interface CardGift {
  buyer: string;
  message: string | null;
  /** Already written in the card's currency and the page's language. */
  amountText: string;
  /** Already written in the business's calendar and zone. */
  dateText: string;
}

/**
 * The gifts bought for this card in the business's shop: who sent each, and their message whole, as plain text
 * (React escapes it; nothing in it becomes a link or markup).
 */
export function CardGifts({ gifts }: { gifts: CardGift[] }) {
  const t = useTranslations('CardPage.gifts');
  if (gifts.length === 0) return null;
  return (
    <section aria-labelledby="gifts-title" className="rounded-xl bg-emerald-50 p-4 shadow-sm ring-1 ring-emerald-200" data-testid="card-gifts">
      <h2 id="gifts-title" className="font-semibold text-emerald-950">
        {t('title')}
      </h2>
      <ol className="mt-2 divide-y divide-emerald-100">
        {gifts.map((g, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: drawn once, newest first, never reordered.
          <li key={i} className="py-2.5" data-testid="card-gift">
            <p className="text-sm font-medium text-slate-900">{t('from', { buyer: g.buyer, amount: g.amountText })}</p>
            {g.message && (
              <p className="mt-1 whitespace-pre-wrap break-words text-base text-slate-900" data-testid="card-gift-message">
                {g.message}
              </p>
            )}
            <p className="mt-1 text-xs text-slate-600">{g.dateText}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
