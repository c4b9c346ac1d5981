import type { Locale } from '@/lib/i18n/locale';

/** Each language named in itself, as a reader looks for their own. */
const NAMES: Record<Locale, string> = { am: 'አማርኛ', en: 'English' };

/** Links to this same page in the other language: `?lang` overrides the business's customer language; `keep` are other parameters the page keeps. */
export function LanguageSwitch({ path, current, label, keep }: { path: string; current: Locale; label: string; keep?: Record<string, string> }) {
  return (
    <nav aria-label={label} className="flex gap-3 text-sm" data-testid="language-switch">
      {(['am', 'en'] as const).map((lang) =>
        lang === current ? (
          <span key={lang} aria-current="page" lang={lang} className="font-semibold text-slate-900">
            {NAMES[lang]}
          </span>
        ) : (
          <a
            key={lang}
            href={`${path}?${new URLSearchParams({ ...keep, lang })}`}
            hrefLang={lang}
            lang={lang}
            className="font-medium text-emerald-800 underline"
          >
            {NAMES[lang]}
          </a>
        ),
      )}
    </nav>
  );
}
