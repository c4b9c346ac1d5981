import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import type { ChapaBalancesView } from '@/lib/rails/chapa/chapa-balances';
import { LISTING_NAMES, type ProviderReconciliation } from '@/lib/reports/provider-reconciliation';
import { dayLabel } from './reconciliation-table';

/** Chapa's balances, as GET /balances gives them now (owner and finance; the service's own Chapa account). */
export function ChapaBalances({ view }: { view: ChapaBalancesView }) {
  return (
    <section aria-labelledby="chapa-balances" className="mb-6" data-testid="chapa-balances">
      <h2 id="chapa-balances" className="mb-2 text-lg font-semibold text-slate-900">
        Chapa balances
      </h2>
      {view.shown ? (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {view.balances.map((b) => (
            <li key={b.currency} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
              <p className="text-sm font-medium text-slate-700">{b.currency}</p>
              <p className="mt-1 text-xl font-semibold text-slate-900" data-testid={`chapa-available-${b.currency}`}>
                {b.available === null ? 'Not given' : formatMoney(b.available, b.currency)}
              </p>
              <p className="text-sm text-slate-600">
                available; {b.ledger === null ? 'ledger balance not given' : `${formatMoney(b.ledger, b.currency)} ledger balance`}
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <Notice tone="info">{view.reason}</Notice>
      )}
    </section>
  );
}

const chapaFigure = (minor: number | null, currency: string) =>
  minor === null ? <span className="text-slate-600">Not read</span> : formatMoney(minor, currency);

/** The provider column: each live day's Chapa transactions and transfers against our payments and payouts, differences listed. */
export function ProviderReconciliationSection({ report }: { report: ProviderReconciliation }) {
  return (
    <section aria-labelledby="provider-recon" className="mb-8" data-testid="provider-recon">
      <h2 id="provider-recon" className="mb-2 text-lg font-semibold text-slate-900">
        Chapa against our ledger
      </h2>
      {report.unread.map((u) => (
        <div key={u.listing} className="mb-3" data-testid={`provider-unread-${u.listing}`}>
          <Notice tone="error">
            {LISTING_NAMES[u.listing]} could not be read just now ({u.reason}): its column shows “Not read” and nothing of it is compared. Reload the page to
            try again.
          </Notice>
        </div>
      ))}
      {report.days.length === 0 ? (
        <p className="text-sm text-slate-700">No payment or payout went through Chapa on these days.</p>
      ) : (
        <>
          {!report.complete && (
            <div className="mb-3">
              <Notice tone="info">
                Chapa’s listing was cut short (more pages than one report reads): references beyond it are marked as not compared, never as missing at Chapa.
              </Notice>
            </div>
          )}
          <section
            className="overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-3 focus-visible:outline-emerald-700"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways must take focus, so a keyboard can scroll it.
            tabIndex={0}
            aria-label="Chapa against our ledger (scrolls sideways)"
          >
            <table className="min-w-full text-sm">
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    Day
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Payments
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Received (ledger)
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Received (Chapa)
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Transfers
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Paid out (ledger)
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    Paid out (Chapa)
                  </th>
                  <th scope="col" className="px-3 py-2 text-left font-medium">
                    Differences
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.days.map((d) => (
                  <tr key={`${d.day}-${d.currency}`} className="border-t border-slate-100" data-testid={`provider-day-${d.day}-${d.currency}`}>
                    <td className="whitespace-nowrap px-3 py-2">
                      {dayLabel(d.day)} · {d.currency}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{d.payments}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatMoney(d.oursReceived, d.currency)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{chapaFigure(d.chapaReceived, d.currency)}</td>
                    <td className="px-3 py-2 text-right tabular-nums">{d.transfers}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{formatMoney(d.oursSettled, d.currency)}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">{chapaFigure(d.chapaSettled, d.currency)}</td>
                    <td className="px-3 py-2">
                      {d.differences.length === 0 && (d.chapaReceived === null || d.chapaSettled === null) ? (
                        <span className="text-slate-700">None among what was read</span>
                      ) : d.differences.length === 0 ? (
                        <span className="text-emerald-800">None</span>
                      ) : (
                        <ul className="space-y-1">
                          {d.differences.map((x) => (
                            <li key={x.reference}>
                              <span className="font-mono">{x.reference}</span>: {x.detail}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  );
}
