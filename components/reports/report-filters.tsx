import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';

const control =
  'mt-1 block min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-emerald-700';
const border = (error?: string) => (error ? 'border-red-600' : 'border-slate-300');

/** A report form's control, bordered red when its value was refused. */
export const reportControl = (error?: string) => `${control} ${border(error)}`;

interface ReportOption {
  value: string;
  label: string;
}

export interface ReportSelect {
  name: string;
  label: string;
  hint: string;
  options: ReportOption[];
  /** The first option, meaning "no filter"; left out, a value must be chosen. */
  all?: string;
  value?: string;
}

/** A labelled report field with its hint, or the reason its value was refused, below. */
export function ReportField({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      <p id={`${id}-note`} className={`mt-1 text-xs ${error ? 'text-sm text-red-700' : 'text-slate-600'}`}>
        {error ?? hint}
      </p>
    </div>
  );
}

/**
 * A report's range of days and its selects as a plain GET form, so a report
 * is a link that can be shared. A refused value is shown back as typed and
 * named under its field; the report uses the default in its place.
 */
export function ReportFilters({
  id,
  path,
  from,
  to,
  raw,
  errors,
  today,
  selects,
  thisMonthHref,
}: {
  /** Prefix of the fields' ids, unique on the page. */
  id: string;
  path: string;
  from: string;
  to: string;
  /** What the URL held, so a refused day is shown back as typed. */
  raw: { from?: string; to?: string };
  errors: Record<string, string>;
  today: string;
  selects: ReportSelect[];
  /** Where "This month" goes: the current Ethiopian month for a reader of that calendar. */
  thisMonthHref?: string;
}) {
  const t = useTranslations('Reports');
  const day = (name: 'from' | 'to', label: string, hint: string, value: string) => (
    <ReportField id={`${id}-${name}`} label={label} error={errors[name]} hint={hint}>
      <input
        id={`${id}-${name}`}
        name={name}
        type="date"
        max={today}
        defaultValue={errors[name] ? raw[name] : value}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={`${id}-${name}-note ${id}-zone`}
        className={reportControl(errors[name])}
      />
    </ReportField>
  );
  return (
    <form
      method="get"
      action={path}
      aria-label={t('options')}
      className="mb-6 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-2 lg:grid-cols-4 lg:items-start"
    >
      {day('from', t('from'), t('fromHint'), from)}
      {day('to', t('to'), t('toHint'), to)}
      {selects.map((s) => (
        <ReportField key={s.name} id={`${id}-${s.name}`} label={s.label} error={errors[s.name]} hint={s.hint}>
          <select
            id={`${id}-${s.name}`}
            name={s.name}
            defaultValue={s.value ?? ''}
            aria-invalid={errors[s.name] ? true : undefined}
            aria-describedby={`${id}-${s.name}-note`}
            className={reportControl(errors[s.name])}
          >
            {s.all !== undefined && <option value="">{s.all}</option>}
            {s.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </ReportField>
      ))}
      <div className="flex flex-wrap items-center gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit" block={false}>
          {t('show')}
        </Button>
        <LinkButton href={thisMonthHref ?? path} variant="secondary" size="md">
          {t('thisMonth')}
        </LinkButton>
        <TimeZoneNote id={`${id}-zone`} lead={t('daysIn')} className="ml-auto" />
      </div>
    </form>
  );
}

/** A query string of the values that are set ("?from=...&currency=ETB"), or nothing. */
export function reportQuery(values: Record<string, string | number | undefined>) {
  const params = new URLSearchParams(Object.entries(values).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])));
  const s = params.toString();
  return s ? `?${s}` : '';
}
