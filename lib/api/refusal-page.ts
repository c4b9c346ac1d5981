import { createTranslator } from 'next-intl';
import type { RefusalBody } from './bare-refusals';
import { type Locale, localeFromAcceptLanguage } from '../i18n/locale';
import am from '../../messages/am.json';
import en from '../../messages/en.json';

const CATALOGUES: Record<Locale, typeof en> = { en, am: am as typeof en };
const htmlText = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

// Drawn outside Next.js (scripts/start.ts), so without the app's stylesheet: the error card's look, inline.
const STYLE = `body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:1rem;box-sizing:border-box;background:#f8fafc;color:#0f172a;font-family:"Noto Sans Ethiopic",ui-sans-serif,system-ui,sans-serif}
main{width:100%;max-width:28rem;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0/.05),0 0 0 1px #e2e8f0}
.s{margin:0;font-size:.875rem;font-weight:600;color:#065f46}h1{margin:.25rem 0 0;font-size:1.25rem}p.t{margin:.5rem 0 0;font-size:.875rem;color:#334155}
a{display:inline-block;margin-top:1.25rem;padding:.5rem 1rem;border-radius:.5rem;background:#047857;color:#fff;font-weight:600;font-size:.875rem;text-decoration:none}`;

/**
 * The page a non-API refusal Next.js leaves bare gets (a method a page does not take, an OPTIONS, a bad server
 * action): the same card as the app's 404, in the language the browser asks for.
 */
export const PAGE_REFUSAL: RefusalBody = {
  contentType: 'text/html; charset=utf-8',
  body: (status, acceptLanguage) => {
    const locale = localeFromAcceptLanguage(acceptLanguage);
    const t = createTranslator({ locale, messages: CATALOGUES[locale], namespace: 'ErrorPages' });
    const title = status === 404 ? t('notFound.title') : status === 405 ? t('refused.methodTitle') : t('refused.title');
    const text = status === 404 ? t('notFound.text') : t('refused.text', { status });
    return `<!DOCTYPE html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${htmlText(t('refused.metaTitle', { title }))}</title><style>${STYLE}</style></head><body><main data-testid="error-page"><p class="s">${status}</p><h1>${htmlText(title)}</h1><p class="t">${htmlText(text)}</p><a href="/">${htmlText(t('home'))}</a></main></body></html>`;
  },
};
