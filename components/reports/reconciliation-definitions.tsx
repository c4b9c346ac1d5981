import { CROSS_CHECKS, FIGURES } from '@/lib/reports/reconciliation/definitions';

const GROUPS = [
  { group: 'in', title: 'Money in' },
  { group: 'out', title: 'Money out' },
  { group: 'reversals', title: 'Reversals' },
  { group: 'fees', title: 'Fees' },
  { group: 'ledger', title: 'The ledger' },
] as const;

/** Every column of the page and of the CSV, in words, and what the three checks compare. */
export function ReconciliationDefinitions() {
  return (
    <section aria-labelledby="recon-definitions" className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h2 id="recon-definitions" className="text-lg font-semibold text-slate-900">
        What each column means
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Every figure comes from the ledger: the transactions your business made on the day, and those other businesses made that reached your accounts (business
        payouts to your business account, card-to-card payouts to your cards). Amounts are what moved on your own accounts (your cards and your business
        account), in the currency of the table. A day is a calendar day in your business’s time zone; a transaction belongs to the day it was written. Columns
        marked “CSV” are in the export only.
      </p>
      <div className="mt-4 grid gap-6 md:grid-cols-2">
        {GROUPS.map((g) => (
          <div key={g.group}>
            <h3 className="font-semibold text-slate-900">{g.title}</h3>
            <dl className="mt-2 space-y-2 text-sm">
              {FIGURES.filter((f) => f.group === g.group).map((f) => (
                <div key={f.key}>
                  <dt className="font-medium text-slate-900">
                    {f.label}
                    {!f.onPage && <span className="ml-1 text-xs font-normal text-slate-600">(CSV: {f.csv})</span>}
                  </dt>
                  <dd className="text-slate-700">{f.text}</dd>
                </div>
              ))}
              {g.group === 'ledger' && (
                <>
                  <div>
                    <dt className="font-medium text-slate-900">Trial balance</dt>
                    <dd className="text-slate-700">
                      Every entry of the day’s transactions summed, on every account they touch (the provider’s clearing and fee accounts included): credits
                      less debits. Each transaction must sum to zero, so the day must too; a transaction that does not is listed.
                    </dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">Balance chain</dt>
                    <dd className="text-slate-700">
                      Each entry on your cards and business account must leave a balance equal to the previous balance plus its amount. An entry that does not
                      is listed under its day.
                    </dd>
                  </div>
                  <div>
                    <dt className="font-medium text-slate-900">Rows agree</dt>
                    <dd className="text-slate-700">
                      The ledger checked against your payouts and payments, transaction by transaction:
                      <ul className="mt-1 list-disc space-y-1 pl-5">
                        {Object.entries(CROSS_CHECKS).map(([k, text]) => (
                          <li key={k}>{text}</li>
                        ))}
                      </ul>
                    </dd>
                  </div>
                </>
              )}
            </dl>
          </div>
        ))}
      </div>
    </section>
  );
}
