import Link from 'next/link';
import { PageHeader } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Reports · Gift cards' };

const REPORTS = [
  {
    href: '/reports/statement',
    title: 'Business account statement',
    text: 'Every movement of the business account per currency: deposits, top-ups paid to cards and their reversals, balances swept in from cancelled cards, business payouts received, with the balance after each.',
  },
  {
    href: '/reports/liability',
    title: 'Liability and breakage',
    text: 'What the business owes card holders on any date, aged by last activity, the dormant cards, and how much of it is likely never to be spent.',
  },
  {
    href: '/reports/reconciliation',
    title: 'Daily reconciliation',
    text: 'Per day and currency: money in, money out by type, reversals and fees, with the ledger’s trial balance. A day that does not add up is shown with the transactions that break it.',
  },
];

export default async function ReportsPage() {
  const session = await requirePage('reports:read');
  return (
    <>
      <PageHeader title="Reports" description={`Month-end reports for ${session.mode} mode, in the business’s time zone. Each one exports to CSV.`} />
      <ul className="grid gap-4 md:grid-cols-3">
        {REPORTS.map((r) => (
          <li key={r.href} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="text-base font-semibold text-slate-900">
              <Link href={r.href} className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700">
                {r.title}
              </Link>
            </h2>
            <p className="mt-2 text-sm text-slate-600">{r.text}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
