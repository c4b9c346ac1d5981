import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { CodeBlock } from '@/components/docs/code-block';
import { ContractText } from '@/components/docs/contract-text';
import { DocsShell } from '@/components/docs/docs-shell';
import { DocsTable } from '@/components/docs/docs-table';
import { openapi, resolve, type JsonSchema } from '@/components/docs/openapi-document';
import { SchemaFields } from '@/components/docs/schema-fields';
import { CATCH_UP_CURL, CATCH_UP_TS, NEXT_RECEIVER, VERIFY_SERVICE_SIGNATURES, VERIFY_STANDARD_WEBHOOKS } from '@/components/docs/webhook-samples';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('DocsWebhooks');
  return { title: t('metaTitle') };
}

/** Each event and the `status` its payload carries; what it means is DocsWebhooks.events.<event>. */
const EVENTS: [string, string][] = [
  ['payment.success', 'success'],
  ['payment.failed', 'failed'],
  ['payment.cancelled', 'cancelled'],
  ['payment.refunded', 'refunded'],
  ['payment.refund_failed', 'failed'],
  ['card.redeemed', 'success'],
  ['hold.created', 'held'],
  ['hold.captured', 'captured'],
  ['hold.voided', 'voided'],
  ['hold.expired', 'expired'],
  ['card.expired', 'success'],
  ['payout.success', 'success'],
  ['payout.failed', 'failed'],
];

const H2 = 'scroll-mt-4 text-2xl font-semibold text-slate-900';
const P = 'max-w-3xl text-sm text-slate-700';
const code = (text: ReactNode) => <code className="font-mono text-[13px]">{text}</code>;

/** The first concrete variant of a union schema (the field table of one event shape). */
function firstVariant(schema: JsonSchema): JsonSchema {
  const s = resolve(schema);
  const alternatives = s.anyOf ?? s.oneOf;
  return alternatives ? firstVariant(alternatives[0]) : s;
}

export default async function WebhooksPage() {
  const t = await getTranslations('DocsWebhooks');
  const rich = { code: (chunks: ReactNode) => code(chunks) };
  const duration = (ms: number) =>
    ms < 60_000
      ? t('durations.seconds', { n: ms / 1000 })
      : ms < 3_600_000
        ? t('durations.minutes', { n: ms / 60_000 })
        : t('durations.hours', { n: ms / 3_600_000 });
  const schedule = openapi['x-limits'].webhook_retry_schedule_ms;
  const headers = openapi.webhooks['payout.success'].post.parameters ?? [];
  const payment = openapi.webhooks['payment.success'].post.requestBody!.content['application/json'];
  const payoutUnion = resolve(openapi.components.schemas.PayoutEvent).anyOf ?? [];
  const payoutExamples = {
    card_to_card: openapi.webhooks['payout.success'].post.requestBody!.content['application/json'].example,
    bank: openapi.webhooks['payout.failed'].post.requestBody!.content['application/json'].example,
  };
  const nav = [
    {
      title: t('nav.title'),
      links: [
        { href: '#events', label: t('nav.events') },
        { href: '#payloads', label: t('nav.payloads') },
        { href: '#signatures', label: t('nav.signatures') },
        { href: '#retries', label: t('nav.retries') },
        { href: '#rotation', label: t('nav.rotation') },
        { href: '#catching-up', label: t('nav.catchingUp') },
      ],
    },
  ];
  return (
    <DocsShell current="webhooks" nav={nav}>
      <section aria-labelledby="webhooks-title" className="space-y-3">
        <h1 id="webhooks-title" className="text-3xl font-semibold text-slate-900">
          {t('title')}
        </h1>
        <p className={P}>{t.rich('intro', rich)}</p>
      </section>

      <section id="events" aria-labelledby="events-title" className="space-y-3">
        <h2 id="events-title" className={H2}>
          {t('events.title')}
        </h2>
        <DocsTable columns={[t('events.event'), t('events.meaning'), t('events.status')]}>
          {EVENTS.map(([event, status]) => (
            <tr key={event}>
              <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{event}</td>
              <td className="py-1.5 pr-3 text-slate-700">{t.rich(`events.meanings.${event}`, rich)}</td>
              <td className="py-1.5 font-mono text-[13px] text-slate-700">{status}</td>
            </tr>
          ))}
        </DocsTable>
      </section>

      <section id="payloads" aria-labelledby="payloads-title" className="space-y-4">
        <h2 id="payloads-title" className={H2}>
          {t('payloads.title')}
        </h2>
        <p className={P}>{t.rich('payloads.order', rich)}</p>
        <div className="grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:grid-cols-2">
          <div className="min-w-0 space-y-2">
            <h3 className="font-mono text-lg font-semibold text-slate-900">payment.*</h3>
            <SchemaFields schema={firstVariant(payment.schema.allOf![0])} caption={t('payloads.fields')} />
          </div>
          <CodeBlock mono label="payment.success" code={JSON.stringify(payment.example, null, 2)} />
        </div>
        <div className="grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:grid-cols-2">
          <div className="min-w-0 space-y-2">
            <h3 className="font-mono text-lg font-semibold text-slate-900">payout.*</h3>
            <p className="text-sm text-slate-700">{t.rich('payloads.payoutReference', rich)}</p>
            {payoutUnion.map((variant) => {
              const v = firstVariant(variant);
              const type = v.properties?.payout_type?.const as string;
              return <SchemaFields key={type} schema={v} caption={code(`payout_type ${type}`)} />;
            })}
          </div>
          <div className="min-w-0 space-y-3">
            <CodeBlock mono label="payout.success (card_to_card)" code={JSON.stringify(payoutExamples.card_to_card, null, 2)} />
            <CodeBlock mono label="payout.failed (bank)" code={JSON.stringify(payoutExamples.bank, null, 2)} />
          </div>
        </div>
      </section>

      <section id="signatures" aria-labelledby="signatures-title" className="space-y-4">
        <h2 id="signatures-title" className={H2}>
          {t('signatures.title')}
        </h2>
        <p className={P}>{t.rich('signatures.intro', rich)}</p>
        <DocsTable caption={t('signatures.headers')} columns={[t('signatures.header'), t('signatures.value')]}>
          {headers.map((h) => (
            <tr key={h.name}>
              <td className="py-1.5 pr-3 font-mono text-[13px] whitespace-nowrap text-slate-900">{h.name}</td>
              <td className="py-1.5 text-slate-700">
                <ContractText>{h.description}</ContractText>
              </td>
            </tr>
          ))}
        </DocsTable>
        <CodeBlock label={t('signatures.verifyStandard')} code={VERIFY_STANDARD_WEBHOOKS} />
        <CodeBlock label={t('signatures.verifyService')} code={VERIFY_SERVICE_SIGNATURES} />
        <CodeBlock label={t('signatures.receiver')} code={NEXT_RECEIVER} />
      </section>

      <section id="retries" aria-labelledby="retries-title" className="space-y-3">
        <h2 id="retries-title" className={H2}>
          {t('retries.title')}
        </h2>
        <p className={P}>{t.rich('retries.intro', { ...rich, attempts: schedule.length + 1 })}</p>
        <ol className="flex max-w-3xl flex-wrap gap-2 text-sm" aria-label={t('retries.waits')}>
          {schedule.map((ms, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the schedule is a fixed list, and its position is what each item shows
            <li key={i} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-slate-200">
              <span className="text-slate-600">{t('retries.retry', { n: i + 1 })}</span> <strong className="text-slate-900">{duration(ms)}</strong>
            </li>
          ))}
        </ol>
      </section>

      <section id="rotation" aria-labelledby="rotation-title" className="space-y-3">
        <h2 id="rotation-title" className={H2}>
          {t('rotation.title')}
        </h2>
        <p className={P}>{t.rich('rotation.intro', rich)}</p>
      </section>

      <section id="catching-up" aria-labelledby="catching-up-title" className="space-y-3">
        <h2 id="catching-up-title" className={H2}>
          {t('catchingUp.title')}
        </h2>
        <p className={P}>{t.rich('catchingUp.intro', rich)}</p>
        <CodeBlock mono label="curl" code={CATCH_UP_CURL} />
        <CodeBlock label="TypeScript" code={CATCH_UP_TS} />
      </section>
    </DocsShell>
  );
}
