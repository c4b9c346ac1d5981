import { useLocale, useTranslations } from 'next-intl';
import { formatMoney } from '@/components/ui/money';
import type { StoryPhrase, StoryValue } from '@/lib/dashboard/card-story-words';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import type { CalendarChoice } from '@/lib/i18n/locale';

/** Who did something, as lib/ names them in English: the fixed names a reader of another language gets in theirs. */
const ACTORS: [RegExp, string][] = [
  [/^another business$/, 'anotherBusiness'],
  [/^the service$/, 'service'],
  [/^the provider$/, 'provider'],
  [/^a removed team member$/, 'removedMember'],
  [/^an API key$/, 'someKey'],
  [/^API key (.+)…$/, 'apiKey'],
];

/** The catalogue key (CardStory.actors.*) of one of lib's fixed actor names, with the key prefix an API key is named by. */
export function actorKey(name: string): { key: string; prefix: string } | undefined {
  for (const [pattern, key] of ACTORS) {
    const m = pattern.exec(name);
    if (m) return { key, prefix: m[1] ?? '' };
  }
  return undefined;
}

/**
 * A card's story in the reader's language: in English the sentences lib/ wrote, in another language each event's
 * phrases (StorySaid) through the CardStory catalogue, its amounts in the card's currency and its days in their calendar.
 */
export function useStoryText(currency: string, calendar: CalendarChoice) {
  const t = useTranslations('CardStory');
  const approvals = useTranslations('Approvals');
  const locale = useLocale() === 'am' ? 'am' : 'en';

  const value = (v: StoryValue): string | number => {
    if (typeof v !== 'object') return v;
    if ('money' in v) return formatMoney(v.money, currency, locale);
    if ('day' in v) return formatCalendarDay(v.day, { locale, calendar });
    if ('approvalReason' in v) return approvals.has(`reasons.${v.approvalReason}`) ? approvals(`reasons.${v.approvalReason}`) : v.approvalReason;
    return t(`terms.${v.term}`);
  };
  const say = (p: StoryPhrase): string => t(`said.${p.key}`, Object.fromEntries(Object.entries(p.values ?? {}).map(([name, v]) => [name, value(v)])));

  /** An actor's name: an email as it is, the fixed names in the reader's language. */
  const actor = (name: string): string => {
    const known = locale === 'en' ? undefined : actorKey(name);
    return known ? t(`actors.${known.key}`, { prefix: known.prefix }) : name;
  };
  return { english: locale === 'en', locale, say, actor };
}
