import { formatMoney } from '@/components/ui/money';
import { type BreakageEstimate, percentText, type RecognisedBreakage } from '@/lib/reports/breakage';

/**
 * The breakage estimate per currency, with the method and its figures in
 * words, or a plain statement that the history is too short to give one.
 */
export function LiabilityBreakage({
  estimates,
  recognised,
  dayLabel,
  formatDay,
  windowStartLabel,
}: {
  estimates: BreakageEstimate[];
  /** Balances of cards that expired up to the day's end: breakage that has happened. */
  recognised: RecognisedBreakage[];
  dayLabel: string;
  formatDay: (at: Date) => string;
  /** The day the dormancy window opens, as people read it. */
  windowStartLabel: string;
}) {
  const n = estimates[0]?.dormantDays;
  return (
    <section aria-labelledby="breakage-title" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6" data-testid="breakage">
      <h2 id="breakage-title" className="text-base font-semibold text-slate-900">
        Breakage
      </h2>
      <p className="mt-2 text-sm text-slate-700" data-testid="breakage-recognised">
        {recognised.length === 0
          ? `Recognised: none. No card had expired by the end of ${dayLabel}.`
          : `Recognised by the end of ${dayLabel}: ${recognised
              .map((r) => `${formatMoney(r.amount, r.currency)} from ${r.cards === 1 ? '1 expired card' : `${r.cards} expired cards`}`)
              .join('; ')}. An expired card's balance moved to your breakage account when it expired; it is no longer owed and is not in the balance above.`}
      </p>
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Expected</h3>
      {estimates.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="breakage-none">
          No value has been loaded onto your cards yet, so there is nothing to estimate.
        </p>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700" data-testid="breakage-method">
            How it is worked out: of all the value loaded onto your cards before {windowStartLabel} (more than {n} days before {dayLabel}), the share still
            sitting on cards that have not moved for over {n} days is taken as never to be spent. Loads are ledger top-ups that reached a card and paid
            payments, and card-to-card payouts your cards received from other businesses’ cards; card-to-card payouts your cards sent to other businesses’ cards
            are taken off, as that value is no longer yours to owe. Card-to-card moves between your own cards and returned payouts are not new value. So what
            dormant cards hold is always part of what was loaded, and the rate stays between 0% and 100%. That rate, applied to the whole balance owed at the
            end of {dayLabel}, is the breakage to expect. It is an estimate from your own history, not an accounting rule: choose the dormancy period your
            auditors accept.
          </p>
          <ul className="mt-4 grid gap-3">
            {estimates.map((e) => (
              <li key={e.currency} className="rounded-lg bg-slate-50 p-3 text-sm" data-testid={`breakage-${e.currency}`}>
                {e.rate && e.expected !== null ? (
                  <>
                    <p className="font-medium text-slate-900">
                      {e.currency}: about <span data-testid="breakage-expected">{formatMoney(e.expected, e.currency)}</span> of{' '}
                      {formatMoney(e.liability, e.currency)} is likely never to be spent (<span data-testid="breakage-rate">{percentText(e.rate)}</span>
                      ).
                    </p>
                    <p className="mt-1 text-slate-700">
                      {formatMoney(e.loadedBefore, e.currency)} was loaded before {windowStartLabel} (net of card-to-card with other businesses);{' '}
                      {formatMoney(e.dormantBalance, e.currency)} of it is still on cards dormant for over {n} days.
                    </p>
                  </>
                ) : (
                  <p className="text-slate-800" data-testid="breakage-too-short">
                    {e.currency}: not enough history to estimate. No value was loaded onto your cards before {windowStartLabel}
                    {e.firstLoadAt ? ` (the first load was on ${formatDay(e.firstLoadAt)})` : ''}, so no value has yet had {n} days to be spent. An estimate
                    shows once value older than {n} days exists.
                  </p>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
