import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { Button } from '@/components/ui/button';

export type PeriodChoice = 'today' | '7d' | '30d' | 'custom';

const CHOICES: PeriodChoice[] = ['today', '7d', '30d', 'custom'];

const control =
  'mt-1 block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700 sm:text-sm';

export interface OverviewPeriodPickerProps {
  /** The period shown, or the one asked for when it could not be read. */
  kind: PeriodChoice;
  /** The days to put in the custom form: the period shown, or what was typed. */
  from: string;
  to: string;
  /** A custom range that could not be shown, and the field it belongs to. */
  error?: { field: 'from' | 'to'; message: string };
}

/**
 * The overview's period in the URL: preset links, and a plain GET form for a
 * custom from/to (works without JavaScript, shareable, back button works).
 */
export function OverviewPeriodPicker({ kind, from, to, error }: OverviewPeriodPickerProps) {
  const href = (value: PeriodChoice) => (value === 'custom' ? `/?${new URLSearchParams({ period: 'custom', from, to })}` : `/?period=${value}`);
  const t = useTranslations('Overview');
  const invalid = (field: 'from' | 'to') => error?.field === field;
  return (
    <section aria-label={t('period')} className="mb-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <nav aria-label={t('choosePeriod')}>
        <ul className="grid grid-cols-4 gap-1 rounded-lg bg-slate-100 p-1 sm:inline-grid">
          {CHOICES.map((value) => (
            <li key={value}>
              <Link
                href={href(value)}
                aria-current={value === kind ? 'true' : undefined}
                className={`flex min-h-10 items-center justify-center rounded-md px-3 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-emerald-700 ${
                  value === kind ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-700 hover:bg-white/70'
                }`}
              >
                {t(`periods.${value}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <form method="get" action="/" className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-[12rem_12rem_auto] sm:items-end" aria-label={t('customPeriod')}>
        <input type="hidden" name="period" value="custom" />
        <div>
          <label htmlFor="period-from" className="block text-sm font-medium text-slate-800">
            {t('from')}
          </label>
          <input
            id="period-from"
            name="from"
            type="date"
            defaultValue={from}
            aria-invalid={invalid('from') || undefined}
            aria-describedby={invalid('from') ? 'period-error period-days-zone' : 'period-days-zone'}
            className={`${control} ${invalid('from') ? 'border-red-600' : 'border-slate-300'}`}
          />
        </div>
        <div>
          <label htmlFor="period-to" className="block text-sm font-medium text-slate-800">
            {t('to')}
          </label>
          <input
            id="period-to"
            name="to"
            type="date"
            defaultValue={to}
            aria-invalid={invalid('to') || undefined}
            aria-describedby={invalid('to') ? 'period-error period-days-zone' : 'period-days-zone'}
            className={`${control} ${invalid('to') ? 'border-red-600' : 'border-slate-300'}`}
          />
        </div>
        <Button type="submit" block={false} className="col-span-2 sm:col-span-1 sm:justify-self-start">
          {t('showPeriod')}
        </Button>
        {error && (
          <p id="period-error" role="alert" data-testid="period-error" className="col-span-2 text-sm font-medium text-red-700 sm:col-span-3">
            {error.message}
          </p>
        )}
        <TimeZoneNote id="period-days-zone" lead={t('daysIn')} className="col-span-2 sm:col-span-3" />
      </form>
    </section>
  );
}
