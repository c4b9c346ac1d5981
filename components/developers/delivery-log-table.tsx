'use client';

import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LocalTime } from '@/components/ui/local-time';
import { StatusBadge } from '@/components/ui/status-badge';
import type { DeliveryLogEntry } from '@/lib/dashboard/list-delivery-log';
import { useDeliveryWords } from './delivery-words';
import { ReplayEventButton } from './replay-buttons';

function prettyJson(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One block per delivery with its attempts newest first; stacked, so it reads the same at 390 px. */
export function DeliveryLogTable({ items }: { items: DeliveryLogEntry[] }) {
  const t = useTranslations('DevelopersLog');
  const { eventWords, subjectWords, attemptProblem, deliveryExplanation } = useDeliveryWords();
  return (
    <>
      <TimeZoneNote className="mb-2" />
      <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="delivery-log">
        {items.map((d) => (
          <li key={d.eventId} className="space-y-2 px-3 py-3" data-testid="delivery">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900">
                  {eventWords(d.type)} <span className="font-mono text-xs font-normal text-slate-600">{d.type}</span>{' '}
                  <span className="sr-only">{t('deliveryState')}</span>{' '}
                  <StatusBadge status={d.state} label={t(`stateNames.${d.state === 'delivered' || d.state === 'failed' ? d.state : 'pending'}`)} />
                </p>
                <p className="break-all font-mono text-xs text-slate-600">{d.eventId}</p>
                <p className="text-sm">
                  <Link
                    href={d.subject.href}
                    className="text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700"
                    data-testid="delivery-subject"
                  >
                    {subjectWords(d.subject.label)} <span className="break-all font-mono">{d.subject.reference}</span>
                  </Link>
                </p>
                <p className={`text-sm ${d.state === 'delivered' ? 'text-slate-700' : 'text-red-800'}`} data-testid="delivery-explanation">
                  {deliveryExplanation(d)}
                </p>
                <p className="text-xs text-slate-600">
                  <LocalTime iso={d.createdAt} />
                  {d.nextAttemptAt && (
                    <>
                      {t('nextAttempt')}
                      <LocalTime iso={d.nextAttemptAt} />
                    </>
                  )}
                </p>
              </div>
              <ReplayEventButton eventId={d.eventId} />
            </div>
            <details className="rounded-md bg-slate-50 px-3 py-2 text-xs" data-testid="delivery-detail">
              <summary className="cursor-pointer font-medium text-slate-800">{t('payloadAndHeaders')}</summary>
              <p className="mt-2 font-medium text-slate-700">{t('headers')}</p>
              <dl className="mt-1 grid grid-cols-1 gap-x-3 font-mono sm:grid-cols-[auto_1fr]" data-testid="delivery-headers">
                {d.headers.map((h) => (
                  <div key={h.name} className="contents">
                    <dt className="text-slate-600">{h.name}</dt>
                    <dd className="mb-1 break-all text-slate-900 sm:mb-0">{h.value}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-2 font-medium text-slate-700">{t('body')}</p>
              <pre
                className="mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded bg-white p-2 font-mono text-slate-900 ring-1 ring-slate-200"
                data-testid="delivery-payload"
              >
                {prettyJson(d.payload)}
              </pre>
            </details>
            {d.attempts.length > 0 && (
              <div className="overflow-x-auto">
                <table className="w-full min-w-[36rem] text-xs">
                  <caption className="sr-only">{t('attemptsFor', { id: d.eventId })}</caption>
                  <thead className="text-left text-slate-600">
                    <tr>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        {t('columns.attemptTime')}
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        {t('columns.status')}
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        {t('columns.duration')}
                      </th>
                      <th scope="col" className="py-1 pr-3 font-medium">
                        {t('columns.error')}
                      </th>
                      <th scope="col" className="py-1 font-medium">
                        {t('columns.response')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.attempts.map((a, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: attempts carry no id of their own and are only ever appended
                      <tr key={i} className="border-t border-slate-100 align-top" data-testid="attempt">
                        <td className="py-1 pr-3 whitespace-nowrap">
                          <LocalTime iso={a.attemptedAt} />
                        </td>
                        <td className="py-1 pr-3 font-mono">{a.statusCode ?? '—'}</td>
                        <td className="py-1 pr-3 tabular-nums whitespace-nowrap">{a.durationMs === null ? '—' : t('milliseconds', { ms: a.durationMs })}</td>
                        <td className="py-1 pr-3 text-red-800">
                          {a.error || (a.statusCode !== null && (a.statusCode < 200 || a.statusCode > 299)) ? attemptProblem(a) : ''}
                        </td>
                        <td className="py-1 break-all font-mono text-slate-700">{a.responseExcerpt ? a.responseExcerpt.slice(0, 120) : ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
