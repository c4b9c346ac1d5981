import type { Metadata } from 'next';
import { CodeBlock } from '@/components/docs/code-block';
import { DocsShell } from '@/components/docs/docs-shell';
import { OperationSection } from '@/components/docs/operation-section';
import { anchorOf, openapi, operations } from '@/components/docs/openapi-document';

export const metadata: Metadata = { title: 'API reference · Gift cards' };

const slug = (tag: string) => tag.toLowerCase().replace(/\s+/g, '-');

/** The API reference, rendered at build time from the checked-in openapi.json. */
export default function ApiReferencePage() {
  const all = operations();
  const tags = openapi.tags.filter((t) => all.some((op) => op.tags[0] === t.name));
  const nav = [
    {
      title: 'Getting started',
      links: [
        { href: '#introduction', label: 'Introduction' },
        { href: '#errors', label: 'Errors and idempotency' },
      ],
    },
    ...tags.map((t) => ({ title: t.name, links: all.filter((op) => op.tags[0] === t.name).map((op) => ({ href: `#${anchorOf(op)}`, label: op.summary })) })),
  ];
  return (
    <DocsShell current="api" nav={nav}>
      <section id="introduction" aria-labelledby="introduction-title" className="space-y-3">
        <h1 id="introduction-title" className="text-3xl font-semibold text-slate-900">
          API reference
        </h1>
        <p className="max-w-3xl text-slate-700">{openapi.info.description}</p>
        <ul className="max-w-3xl list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>
            Base address: <code className="font-mono">{'{APP_URL}'}/api/v1</code> (called <code className="font-mono">$BASE_URL</code> below). Send JSON with{' '}
            <code className="font-mono">Content-Type: application/json</code>.
          </li>
          <li>
            Authenticate every call with <code className="font-mono">Authorization: Bearer $API_KEY</code>. A missing or invalid key is 401 Unauthorized; an
            inactive key, or one not set up for gift cards, 403 Forbidden.
          </li>
          <li>Amounts are integers in minor units: 100 is 1 ETB. Payments and payouts take the card’s currency.</li>
          <li>
            The machine-readable description is{' '}
            <a className="text-sky-800 underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>{' '}
            (OpenAPI 3.1). Webhooks are explained on{' '}
            <a className="text-sky-800 underline" href="/docs/webhooks">
              their own page
            </a>
            .
          </li>
        </ul>
        <div className="grid gap-4 lg:grid-cols-2">
          <CodeBlock
            label="Success"
            code={JSON.stringify({ status: 'success', message: 'Gift card retrieved successfully', data: { card_number: '4921583047261138' } }, null, 2)}
          />
          <CodeBlock
            label="Error"
            code={JSON.stringify(
              { status: 'error', message: 'Validation error', error: { amount: 'Amount must be at least 100 minor units (1 unit of currency).' } },
              null,
              2,
            )}
          />
        </div>
      </section>

      <section id="errors" aria-labelledby="errors-title" className="space-y-2">
        <h2 id="errors-title" className="text-2xl font-semibold text-slate-900">
          Errors and idempotency
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">
          An error’s <code className="font-mono">message</code> is its title (<em>Insufficient balance</em>, <em>Gift card not found</em>…) and{' '}
          <code className="font-mono">error</code> says what to do; a <em>Validation error</em> gives <code className="font-mono">error</code> as an object
          keyed by field name. A 500 answer carries a <code className="font-mono">request_id</code>; every answer has an{' '}
          <code className="font-mono">x-request-id</code> header. Bodies over 1 MB get 413.
        </p>
        <p className="max-w-3xl text-sm text-slate-700">
          Every POST takes an optional <code className="font-mono">Idempotency-Key</code> header (up to 255 characters): the first answer is kept for 24 hours
          per API key, a retry with the same key and body gets the same status and body, the same key with another body gets 409 <em>Idempotency key reused</em>
          , and a retry while the first is still running gets 409 <em>Request in progress</em>. Retry payouts and payments with the same key and nothing moves
          twice.
        </p>
      </section>

      {tags.map((tag) => (
        <section key={tag.name} id={slug(tag.name)} aria-labelledby={`${slug(tag.name)}-title`} className="space-y-4">
          <div>
            <h2 id={`${slug(tag.name)}-title`} className="text-2xl font-semibold text-slate-900">
              {tag.name}
            </h2>
            <p className="text-sm text-slate-700">{tag.description}</p>
          </div>
          {all
            .filter((op) => op.tags[0] === tag.name)
            .map((op) => (
              <OperationSection key={op.operationId} op={op} />
            ))}
        </section>
      ))}
    </DocsShell>
  );
}
