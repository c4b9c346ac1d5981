import { formatMoney } from '@/components/ui/money';
import { dayIn } from '@/lib/dashboard/time-zone';

export interface VolumePoint {
  day: string;
  payments: number;
  payouts: number;
}

/** Thirty days of payment and payout volume as server-rendered SVG bars: no chart library shipped. */
export function VolumeChart({ currency, points, timeZone }: { currency: string; points: VolumePoint[]; timeZone: string }) {
  const days: VolumePoint[] = [];
  const byDay = new Map(points.map((p) => [p.day, p]));
  for (let i = 29; i >= 0; i--) {
    const day = dayIn(timeZone, new Date(Date.now() - i * 86_400_000));
    days.push(byDay.get(day) ?? { day, payments: 0, payouts: 0 });
  }
  const max = Math.max(1, ...days.map((d) => Math.max(d.payments, d.payouts)));
  const totalIn = days.reduce((s, d) => s + d.payments, 0);
  const totalOut = days.reduce((s, d) => s + d.payouts, 0);
  return (
    <figure>
      <svg
        viewBox="0 0 300 100"
        role="img"
        aria-label={`${currency}: ${formatMoney(totalIn, currency)} paid in and ${formatMoney(totalOut, currency)} paid out over 30 days`}
        className="h-32 w-full"
      >
        {days.map((d, i) => (
          <g key={d.day}>
            <rect x={i * 10 + 1} y={100 - (d.payments / max) * 100} width={4} height={(d.payments / max) * 100} className="fill-emerald-600" />
            <rect x={i * 10 + 5} y={100 - (d.payouts / max) * 100} width={4} height={(d.payouts / max) * 100} className="fill-sky-600" />
          </g>
        ))}
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-700">
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-emerald-600" />
          Payments {formatMoney(totalIn, currency)}
        </span>
        <span>
          <span className="mr-1 inline-block h-2 w-2 bg-sky-600" />
          Payouts {formatMoney(totalOut, currency)}
        </span>
      </figcaption>
    </figure>
  );
}
