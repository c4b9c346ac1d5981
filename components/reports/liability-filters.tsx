import { useTranslations } from 'next-intl';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { ReportField, reportControl, type ReportSelect } from './report-filters';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';

export interface LiabilityFilterValues {
  day: string;
  dormantDays: number;
  currency?: string;
}

/**
 * The report's choices as a plain GET form, so a report is a link that can be
 * shared. A bad value is named under its field; the report shows the default in its place.
 */
export function LiabilityFilters({
  values,
  raw,
  errors,
  today,
  currencies,
  periods = [],
}: {
  values: LiabilityFilterValues;
  /** What the URL held, so a refused value is shown back as typed. */
  raw: { day?: string; dormant?: string; currency?: string };
  errors: Record<string, string>;
  today: string;
  currencies: readonly string[];
  /** The Ethiopian month and fiscal year, for a reader of that calendar: the report is as of the period's last day. */
  periods?: ReportSelect[];
}) {
  const t = useTranslations('Reports');
  return (
    <form
      method="get"
      action="/reports/liability"
      aria-label={t('options')}
      className="mb-6 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-start"
    >
      <ReportField id="liability-day" label={t('liability.day')} error={errors.day} hint={t('liability.dayHint')}>
        <input
          id="liability-day"
          name="day"
          type="date"
          max={today}
          defaultValue={errors.day ? raw.day : values.day}
          aria-invalid={errors.day ? true : undefined}
          aria-describedby="liability-day-note liability-zone"
          className={reportControl(errors.day)}
        />
      </ReportField>
      <ReportField id="liability-dormant" label={t('liability.dormant')} error={errors.dormant} hint={t('liability.dormantHint')}>
        <input
          id="liability-dormant"
          name="dormant"
          inputMode="numeric"
          defaultValue={errors.dormant ? raw.dormant : String(values.dormantDays)}
          aria-invalid={errors.dormant ? true : undefined}
          aria-describedby="liability-dormant-note"
          className={reportControl(errors.dormant)}
        />
      </ReportField>
      <ReportField id="liability-currency" label={t('liability.currency')} error={errors.currency} hint={t('liability.currencyHint')}>
        <select
          id="liability-currency"
          name="currency"
          defaultValue={values.currency ?? ''}
          aria-invalid={errors.currency ? true : undefined}
          aria-describedby="liability-currency-note"
          className={reportControl(errors.currency)}
        >
          <option value="">{t('liability.allCurrencies')}</option>
          {currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </ReportField>
      {periods.map((s) => (
        <ReportField key={s.name} id={`liability-${s.name}`} label={s.label} hint={t('liability.periodHint')}>
          <select
            id={`liability-${s.name}`}
            name={s.name}
            defaultValue={s.value ?? ''}
            aria-describedby={`liability-${s.name}-note`}
            className={reportControl()}
          >
            <option value="">{s.all}</option>
            {s.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </ReportField>
      ))}
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1 lg:mt-6">
        <Button type="submit" className="flex-1">
          {t('show')}
        </Button>
        <LinkButton href="/reports/liability" variant="secondary" size="md">
          {t('liability.today')}
        </LinkButton>
      </div>
      <TimeZoneNote id="liability-zone" lead={t('daysIn')} className="sm:col-span-2 lg:col-span-4" />
    </form>
  );
}
