import { useTranslations } from 'next-intl';

export interface ShopHeaderProps {
  businessName: string;
  headline: string | null;
  color: string | null;
  testMode: boolean;
}

/** The shop's name and headline in its colour; a test-mode shop says so on every page. */
export function ShopHeader({ businessName, headline, color, testMode }: ShopHeaderProps) {
  const t = useTranslations('Shop');
  return (
    <>
      {testMode && (
        <p
          data-testid="test-mode"
          role="note"
          className="rounded-lg border-2 border-dashed border-amber-400 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900"
        >
          {t('testMode')}
        </p>
      )}
      <header className="rounded-xl px-4 py-5 text-white" style={{ backgroundColor: color ?? '#047857' }}>
        <p className="text-sm font-medium uppercase tracking-wide opacity-90">{t('eyebrow')}</p>
        <h1 className="mt-1 text-2xl font-semibold break-words" data-testid="shop-name">
          {businessName}
        </h1>
        {headline && <p className="mt-2 break-words">{headline}</p>}
      </header>
    </>
  );
}
