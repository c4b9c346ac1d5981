/** The languages a person reads the dashboard, sign-in and checkout in. */
export const LOCALES = ['en', 'am'] as const;
export type Locale = (typeof LOCALES)[number];

/** The calendars dates are shown in; APIs and CSV keep ISO 8601 whatever is chosen. */
export const CALENDARS = ['gregorian', 'ethiopic'] as const;
export type CalendarChoice = (typeof CALENDARS)[number];

export const isLocale = (value: unknown): value is Locale => (LOCALES as readonly unknown[]).includes(value);

/**
 * The language an Accept-Language header asks for among ours: its ranges by quality (ties keep the
 * header's order), the first whose primary tag is Amharic or English; English when it names neither.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.trim().toLowerCase().split('-')[0], quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranges.map((r) => r.primary).find(isLocale) ?? 'en';
}
