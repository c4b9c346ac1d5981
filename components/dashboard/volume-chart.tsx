'use client';

import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useLocale, useTranslations } from 'next-intl';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { formatMoney } from '@/components/ui/money';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { isLocale } from '@/lib/i18n/locale';
import { unitsText } from '@/lib/money-text';

export interface VolumePoint {
  /** A calendar day of the business's zone, YYYY-MM-DD. */
  day: string;
  paymentsIn: number;
  payoutsOut: number;
  net: number;
  paymentCount: number;
  payoutCount: number;
}

/** Beyond this many days a bar pair per day is thinner than a pixel on a phone: the chart draws lines instead. */
const MAX_BAR_DAYS = 92;
const SLOT = 10;

const utcNoon = (day: string) => new Date(`${day}T12:00:00Z`);
// Days are already the business's calendar days: formatting them in UTC keeps them the same day on the server and in every browser.
const tickFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const monthFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' });
const longFormat = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A tick's amount in currency units ("1.5K", "250", "0.5"), from minor units without float division. */
function unitsTick(minor: number): string {
  // Intl formats a decimal string exactly (ECMA-402 v3); its typings know only numbers.
  return compact.format(unitsText(minor) as unknown as number);
}

/** Round steps (1, 2 or 5 times a power of ten, in minor units) so that about four gridlines cover the largest day. */
function amountTicks(max: number): number[] {
  if (max <= 0) return [0, 100];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(t);
  return ticks;
}

/** At most `count` of the candidate day indexes, evenly spaced, always the first. */
function dayTicks(candidates: number[], count: number): number[] {
  const step = Math.max(1, Math.ceil(candidates.length / count));
  return candidates.filter((_, k) => k % step === 0);
}

/**
 * Money in and out per day of a period as SVG with HTML axes (so labels keep
 * their size on any screen): bars per day, lines beyond three months. Each
 * day shows its values on hover and on keyboard focus (one tab stop, arrow
 * keys move between days), and a visually hidden table reads the same.
 */
export function VolumeChart({ currency, points }: { currency: string; points: VolumePoint[] }) {
  const id = useId();
  const t = useTranslations('Overview');
  const asked = useLocale();
  const locale = isLocale(asked) ? asked : 'en';
  const { calendar = 'gregorian' } = useBusinessPreferences();
  // English Gregorian keeps its short forms; another language or calendar writes each day as the person reads it.
  const plain = locale === 'en' && calendar === 'gregorian';
  const dayText = (day: string, f: Intl.DateTimeFormat = longFormat) => (plain ? f.format(utcNoon(day)) : formatCalendarDay(day, { locale, calendar }));
  // An axis label is short in any language: the day and the month's short name in the person's calendar.
  const shortAxis = new Intl.DateTimeFormat(`${locale}-u-ca-${calendar === 'ethiopic' ? 'ethiopic' : 'gregory'}`, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
  });
  const axisText = (day: string, f: Intl.DateTimeFormat) => (plain ? f.format(utcNoon(day)) : shortAxis.format(utcNoon(day)));
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const dayLabel = (p: VolumePoint) =>
    t('chart.dayLabel', {
      day: dayText(p.day),
      in: money(p.paymentsIn),
      payments: p.paymentCount,
      out: money(p.payoutsOut),
      payouts: p.payoutCount,
      net: money(p.net),
    });
  const [active, setActive] = useState<number | null>(null);
  const [focusIndex, setFocusIndex] = useState(points.length - 1);
  const columns = useRef<(HTMLDivElement | null)[]>([]);
  const n = points.length;
  if (n === 0) return null;
  const ticks = amountTicks(Math.max(0, ...points.map((p) => Math.max(p.paymentsIn, p.payoutsOut))));
  const top = ticks[ticks.length - 1];
  const y = (v: number) => 100 - (v / top) * 100;
  const bars = n <= MAX_BAR_DAYS;
  // A day's pair of bars fills 70% of its slot, less for a short period, where a slot is most of the chart.
  const group = SLOT * Math.min(0.7, 0.1 * n);
  // Bars are labelled by day; a long period's lines by the months that start in it.
  const monthStarts = points.flatMap((p, i) => (p.day.endsWith('-01') ? [i] : []));
  const candidates = bars || monthStarts.length === 0 ? points.map((_, i) => i) : monthStarts;
  const desktopTicks = new Set(dayTicks(candidates, 8));
  const mobileTicks = new Set(dayTicks(candidates, bars ? 4 : 3));
  const line = (key: 'paymentsIn' | 'payoutsOut') => points.map((p, i) => `${i * SLOT + SLOT / 2},${y(p[key])}`).join(' ');

  const move = (to: number) => {
    const i = Math.min(n - 1, Math.max(0, to));
    setFocusIndex(i);
    setActive(i);
    columns.current[i]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const at = focusIndex;
    const keys: Record<string, number> = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: n - 1, PageUp: at - 7, PageDown: at + 7 };
    if (!(e.key in keys)) return;
    e.preventDefault();
    move(keys[e.key]);
  };

  const shown = active === null ? null : points[active];
  // Beside the day's bars, on the side with more room, so it never hides them.
  const tooltipPlace =
    active === null
      ? {}
      : n === 1
        ? { left: '50%', transform: 'translateX(-50%)' }
        : active + 0.5 > n / 2
          ? { right: `calc(${100 - (active / n) * 100}% + 4px)` }
          : { left: `calc(${((active + 1) / n) * 100}% + 4px)` };

  return (
    <figure aria-labelledby={`${id}-title`} data-testid={`volume-chart-${currency}`}>
      <figcaption className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <span id={`${id}-title`} className="text-sm font-medium text-slate-800">
          {t('chart.perDay', { currency })}
        </span>
        <span className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
          <span>
            <span aria-hidden="true" className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-emerald-600" />
            {t('moneyIn')}
          </span>
          <span>
            <span aria-hidden="true" className="mr-1 inline-block h-2.5 w-2.5 rounded-sm bg-sky-700" />
            {t('payoutsOut')}
          </span>
        </span>
      </figcaption>
      <div className="flex gap-2">
        <div aria-hidden="true" className="relative mt-6 h-40 w-12 shrink-0 text-right text-[11px] text-slate-600 tabular-nums sm:h-48">
          <span className="absolute -top-6 right-0 font-medium">{currency}</span>
          {ticks.map((t) => (
            <span key={t} className="absolute right-0 -translate-y-1/2 whitespace-nowrap" style={{ top: `${y(t)}%` }}>
              {unitsTick(t)}
            </span>
          ))}
        </div>
        <div className="min-w-0 flex-1">
          <div className="relative mt-6 h-40 sm:h-48">
            <svg aria-hidden="true" viewBox={`0 0 ${n * SLOT} 100`} preserveAspectRatio="none" className="absolute inset-0 h-full w-full overflow-visible">
              {ticks.map((t) => (
                <line
                  key={t}
                  x1={0}
                  x2={n * SLOT}
                  y1={y(t)}
                  y2={y(t)}
                  vectorEffect="non-scaling-stroke"
                  className={t === 0 ? 'stroke-slate-400' : 'stroke-slate-200'}
                />
              ))}
              {active !== null && <rect x={active * SLOT} y={0} width={SLOT} height={100} className="fill-slate-900/5" />}
              {bars ? (
                points.map((p, i) => (
                  <g key={p.day}>
                    <rect x={i * SLOT + (SLOT - group) / 2} y={y(p.paymentsIn)} width={group / 2} height={100 - y(p.paymentsIn)} className="fill-emerald-600" />
                    <rect x={i * SLOT + SLOT / 2} y={y(p.payoutsOut)} width={group / 2} height={100 - y(p.payoutsOut)} className="fill-sky-700" />
                  </g>
                ))
              ) : (
                <>
                  <polyline points={line('paymentsIn')} fill="none" vectorEffect="non-scaling-stroke" strokeWidth={1.5} className="stroke-emerald-600" />
                  <polyline points={line('payoutsOut')} fill="none" vectorEffect="non-scaling-stroke" strokeWidth={1.5} className="stroke-sky-700" />
                </>
              )}
            </svg>
            {/* biome-ignore lint/a11y/useSemanticElements: a group of day points is not a fieldset of form controls */}
            <div
              role="group"
              aria-label={t('chart.daysLabel', { currency })}
              className="absolute inset-0 flex"
              onKeyDown={onKeyDown}
              onMouseLeave={() => setActive(columns.current.some((c) => c && c === document.activeElement) ? focusIndex : null)}
              data-testid={`volume-days-${currency}`}
            >
              {points.map((p, i) => (
                <div
                  key={p.day}
                  ref={(el) => {
                    columns.current[i] = el;
                  }}
                  role="img"
                  aria-label={dayLabel(p)}
                  data-day={p.day}
                  tabIndex={i === focusIndex ? 0 : -1}
                  onMouseEnter={() => setActive(i)}
                  onFocus={() => {
                    setFocusIndex(i);
                    setActive(i);
                  }}
                  onBlur={() => setActive(null)}
                  className="h-full min-w-0 flex-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-700"
                />
              ))}
            </div>
            {shown && (
              <div
                aria-hidden="true"
                data-testid={`volume-tooltip-${currency}`}
                className="pointer-events-none absolute top-0 z-10 w-max max-w-[14rem] rounded-lg bg-slate-900 px-3 py-2 text-xs text-white shadow-lg"
                style={tooltipPlace}
              >
                <p className="font-semibold">{dayText(shown.day)}</p>
                <dl className="mt-1 grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5 tabular-nums">
                  <dt>{t('chart.moneyInCount', { count: shown.paymentCount })}</dt>
                  <dd className="text-right">{money(shown.paymentsIn)}</dd>
                  <dt>{t('chart.payoutsOutCount', { count: shown.payoutCount })}</dt>
                  <dd className="text-right">{money(shown.payoutsOut)}</dd>
                  <dt className="font-semibold">{t('chart.net')}</dt>
                  <dd className="text-right font-semibold">{money(shown.net)}</dd>
                </dl>
              </div>
            )}
          </div>
          <div aria-hidden="true" className="relative mt-1 h-5 text-[11px] text-slate-600">
            {points.map((p, i) => {
              const onDesktop = desktopTicks.has(i);
              const onMobile = mobileTicks.has(i);
              if (!onDesktop && !onMobile) return null;
              const visibility = onDesktop && onMobile ? '' : onDesktop ? 'hidden sm:block' : 'sm:hidden';
              const center = ((i + 0.5) / n) * 100;
              const place =
                n === 1
                  ? { left: '50%', transform: 'translateX(-50%)' }
                  : center < 10
                    ? { left: `${(i / n) * 100}%` }
                    : center > 90
                      ? { right: `${100 - ((i + 1) / n) * 100}%` }
                      : { left: `${center}%`, transform: 'translateX(-50%)' };
              return (
                <span key={p.day} className={`absolute top-0 whitespace-nowrap ${visibility}`} style={place}>
                  {n === 1 ? dayText(p.day) : axisText(p.day, bars ? tickFormat : monthFormat)}
                </span>
              );
            })}
          </div>
        </div>
      </div>
      {/* A table ignores the 1 px width of sr-only and would widen the page: its wrapper clips it. */}
      <div className="sr-only">
        <table>
          <caption>{t('chart.perDay', { currency })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{t('moneyIn')}</th>
              <th scope="col">{t('payoutsOut')}</th>
              <th scope="col">{t('chart.net')}</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.day}>
                <th scope="row">{dayText(p.day)}</th>
                <td>
                  {money(p.paymentsIn)} ({p.paymentCount})
                </td>
                <td>
                  {money(p.payoutsOut)} ({p.payoutCount})
                </td>
                <td>{money(p.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
