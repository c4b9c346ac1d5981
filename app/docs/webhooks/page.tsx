import type { Metadata } from 'next';
import { CodeBlock } from '@/components/docs/code-block';
import { DocsShell } from '@/components/docs/docs-shell';
import { DocsTable } from '@/components/docs/docs-table';
import { openapi, resolve, type JsonSchema } from '@/components/docs/openapi-document';
import { SchemaFields } from '@/components/docs/schema-fields';
import { CATCH_UP_CURL, CATCH_UP_TS, NEXT_RECEIVER, VERIFY_SERVICE_SIGNATURES, VERIFY_STANDARD_WEBHOOKS } from '@/components/docs/webhook-samples';

export const metadata: Metadata = { title: 'Webhooks · Gift cards' };

const EVENTS: [string, string, string][] = [
  ['payment.success', 'A card was topped up', 'success'],
  ['payment.failed', 'A payment failed', 'failed'],
  ['payment.cancelled', 'The customer cancelled a payment', 'cancelled'],
  ['payment.refunded', 'A paid top-up was refunded in full or in part: the card was debited and the payer is being repaid (amount is this refund)', 'refunded'],
  [
    'payment.refund_failed',
    'The provider refused a live refund: the debit went back to the card (to the business account if the card was disabled or cancelled meanwhile)',
    'failed',
  ],
  [
    'card.redeemed',
    'A card was spent at your business (a till or the dashboard): the amount left the card and reached your business account less the fee',
    'success',
  ],
  ['hold.created', 'A till set money of a card aside: it left available_amount for held_amount', 'held'],
  ['hold.captured', 'A hold was captured: captured_amount reached your business account less the fee, the rest went back to the card', 'captured'],
  ['hold.voided', 'A hold was voided: its money is back on the card (on your business account if the card was cancelled meanwhile)', 'voided'],
  ['hold.expired', 'A hold reached expires_at uncaptured: the service released its money to the card', 'expired'],
  [
    'card.expired',
    "A card reached its expiry date (the business's expiry policy): its whole balance moved to the business's breakage account and the card is read-only",
    'success',
  ],
  ['payout.success', 'A payout or ledger top-up completed (card-to-card and B2B at once; bank when the bank confirms)', 'success'],
  [
    'payout.failed',
    'A bank payout or top-up failed; the whole debit went back to the card (to the business account if the card was disabled or cancelled meanwhile)',
    'failed',
  ],
];

function duration(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  if (ms < 3_600_000) return `${ms / 60_000} min`;
  return `${ms / 3_600_000} h`;
}

const H2 = 'scroll-mt-4 text-2xl font-semibold text-slate-900';
const P = 'max-w-3xl text-sm text-slate-700';
const code = (text: string) => <code className="font-mono text-[13px]">{text}</code>;

/** The first concrete variant of a union schema (the field table of one event shape). */
function firstVariant(schema: JsonSchema): JsonSchema {
  const s = resolve(schema);
  const alternatives = s.anyOf ?? s.oneOf;
  return alternatives ? firstVariant(alternatives[0]) : s;
}

export default function WebhooksPage() {
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
      title: 'Webhooks',
      links: [
        { href: '#events', label: 'Events' },
        { href: '#payloads', label: 'Payloads' },
        { href: '#signatures', label: 'Signatures' },
        { href: '#retries', label: 'Retries' },
        { href: '#rotation', label: 'Secret rotation' },
        { href: '#catching-up', label: 'Catching up' },
      ],
    },
  ];
  return (
    <DocsShell current="webhooks" nav={nav}>
      <section aria-labelledby="webhooks-title" className="space-y-3">
        <h1 id="webhooks-title" className="text-3xl font-semibold text-slate-900">
          Webhooks
        </h1>
        <p className={P}>
          When a payment or payout finishes, the service POSTs the event as JSON to the URL registered for that mode (through the dashboard or the provider).
          Live URLs must be https and public. Answer 2xx within 15 seconds and do the work afterwards; deliveries can repeat, so deduplicate on the{' '}
          {code('webhook-id')} header. Check the signature on the raw body before you update an order or a balance.
        </p>
      </section>

      <section id="events" aria-labelledby="events-title" className="space-y-3">
        <h2 id="events-title" className={H2}>
          Events
        </h2>
        <DocsTable columns={['event', 'Meaning', 'status']}>
          {EVENTS.map(([event, meaning, status]) => (
            <tr key={event}>
              <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{event}</td>
              <td className="py-1.5 pr-3 text-slate-700">{meaning}</td>
              <td className="py-1.5 font-mono text-[13px] text-slate-700">{status}</td>
            </tr>
          ))}
        </DocsTable>
      </section>

      <section id="payloads" aria-labelledby="payloads-title" className="space-y-4">
        <h2 id="payloads-title" className={H2}>
          Payloads
        </h2>
        <p className={P}>
          Keys come in this order: {code('event')}, {code('status')}, {code('mode')}; the type field, {code('currency')}, {code('amount')}; references and
          context; {code('created_at')} and {code('updated_at')} last. Empty optional fields are left out, never sent as null. Branch on {code('event')} and,
          for payouts, on {code('payout_type')}.
        </p>
        <div className="grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:grid-cols-2">
          <div className="min-w-0 space-y-2">
            <h3 className="text-lg font-semibold text-slate-900">payment.*</h3>
            <SchemaFields schema={firstVariant(payment.schema.allOf![0])} caption="Fields" />
          </div>
          <CodeBlock label="payment.success" code={JSON.stringify(payment.example, null, 2)} />
        </div>
        <div className="grid gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 lg:grid-cols-2">
          <div className="min-w-0 space-y-2">
            <h3 className="text-lg font-semibold text-slate-900">payout.*</h3>
            <p className="text-sm text-slate-700">
              One primary reference, by {code('payout_type')}: {code('initiator_reference')} for card_to_card, {code('provider_reference')} for bank and b2b
              (the value POST /card/payouts answered). {code('meta')} holds destination details only.
            </p>
            {payoutUnion.map((variant) => {
              const v = firstVariant(variant);
              const type = v.properties?.payout_type?.const as string;
              return <SchemaFields key={type} schema={v} caption={`payout_type ${type}`} />;
            })}
          </div>
          <div className="min-w-0 space-y-3">
            <CodeBlock label="payout.success (card_to_card)" code={JSON.stringify(payoutExamples.card_to_card, null, 2)} />
            <CodeBlock label="payout.failed (bank)" code={JSON.stringify(payoutExamples.bank, null, 2)} />
          </div>
        </div>
      </section>

      <section id="signatures" aria-labelledby="signatures-title" className="space-y-4">
        <h2 id="signatures-title" className={H2}>
          Signatures
        </h2>
        <p className={P}>
          Every delivery carries three signatures. Check {code('webhook-signature')} (it covers the body and the time, so a captured request cannot be replayed)
          and, if you integrated against the original interface, {code('service-signature')}. Compare in constant time.
        </p>
        <DocsTable caption="Headers" columns={['Header', 'Value']}>
          {headers.map((h) => (
            <tr key={h.name}>
              <td className="py-1.5 pr-3 font-mono text-[13px] whitespace-nowrap text-slate-900">{h.name}</td>
              <td className="py-1.5 text-slate-700">{h.description}</td>
            </tr>
          ))}
        </DocsTable>
        <CodeBlock label="Node: Standard Webhooks webhook-signature" code={VERIFY_STANDARD_WEBHOOKS} />
        <CodeBlock label="Node: service-signature and x-service-signature" code={VERIFY_SERVICE_SIGNATURES} />
        <CodeBlock label="Node: a receiver" code={NEXT_RECEIVER} />
      </section>

      <section id="retries" aria-labelledby="retries-title" className="space-y-3">
        <h2 id="retries-title" className={H2}>
          Retries
        </h2>
        <p className={P}>
          A delivery that gets no 2xx within 15 seconds is tried again after each wait below, then marked failed ({schedule.length + 1} attempts in all). A{' '}
          {code('Retry-After')} header can lengthen a wait (up to 24 h). 410 Gone stops deliveries to that URL until it is registered again. Every attempt keeps
          the event’s {code('webhook-id')} and is signed afresh with a new {code('webhook-timestamp')}. Failed deliveries can be replayed from the dashboard.
        </p>
        <ol className="flex max-w-3xl flex-wrap gap-2 text-sm" aria-label="Waits before each retry">
          {schedule.map((ms, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the schedule is a fixed list, and its position is what each item shows
            <li key={i} className="rounded-md bg-white px-3 py-1.5 ring-1 ring-slate-200">
              <span className="text-slate-600">retry {i + 1}:</span> <strong className="text-slate-900">{duration(ms)}</strong>
            </li>
          ))}
        </ol>
      </section>

      <section id="rotation" aria-labelledby="rotation-title" className="space-y-3">
        <h2 id="rotation-title" className={H2}>
          Secret rotation
        </h2>
        <p className={P}>
          Rotating the secret starts an overlap (24 hours unless another is chosen) during which both secrets sign. {code('webhook-signature')} then carries two
          signatures, space-separated, the new one first: a receiver holding either secret verifies. {code('service-signature')} and{' '}
          {code('x-service-signature')} keep the previous secret’s values until the overlap ends, and {code('service-signature-next')} and{' '}
          {code('x-service-signature-next')} carry the new secret’s. Deploy the new secret beside the old (the code above accepts both), then drop the old one
          once the overlap is over.
        </p>
      </section>

      <section id="catching-up" aria-labelledby="catching-up-title" className="space-y-3">
        <h2 id="catching-up-title" className={H2}>
          Catching up with GET /api/v1/events
        </h2>
        <p className={P}>
          If your receiver was down, do not wait for the retries: list the events your URL has not acknowledged with {code('undelivered=true')} (and{' '}
          {code('type')} to narrow it), newest first, {code('page')}/{code('limit')} as for every list. Each item has the {code('id')} its deliveries carry as{' '}
          {code('webhook-id')}, its {code('payload')} (the exact webhook body) and the state of its delivery to your URL.
        </p>
        <CodeBlock label="curl" code={CATCH_UP_CURL} />
        <CodeBlock label="TypeScript" code={CATCH_UP_TS} />
      </section>
    </DocsShell>
  );
}
