import type { Metadata } from 'next';
import { getLocale, getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { CodeBlock } from '@/components/docs/code-block';
import { ContractText } from '@/components/docs/contract-text';
import { DocsShell } from '@/components/docs/docs-shell';
import { OperationSection } from '@/components/docs/operation-section';
import { anchorOf, openapi, operations } from '@/components/docs/openapi-document';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('Docs');
  return { title: t('metaTitle') };
}

const slug = (tag: string) => tag.toLowerCase().replace(/\s+/g, '-');

/** The API reference, drawn from the checked-in openapi.json, in the reader's language (the contract's own words stay English). */
export default async function ApiReferencePage() {
  const t = await getTranslations('Docs');
  const code = (chunks: ReactNode) => <code className="font-mono">{chunks}</code>;
  const em = (chunks: ReactNode) => <em>{chunks}</em>;
  const all = operations();
  const tags = openapi.tags.filter((t) => all.some((op) => op.tags[0] === t.name));
  const nav = [
    {
      title: t('nav.start'),
      links: [
        { href: '#introduction', label: t('nav.introduction') },
        { href: '#errors', label: t('nav.errors') },
      ],
    },
    ...tags.map((tag) => ({
      title: tag.name,
      contract: true,
      links: all.filter((op) => op.tags[0] === tag.name).map((op) => ({ href: `#${anchorOf(op)}`, label: op.summary })),
    })),
  ];
  return (
    <DocsShell current="api" nav={nav}>
      <section id="introduction" aria-labelledby="introduction-title" className="space-y-3">
        <h1 id="introduction-title" className="text-3xl font-semibold text-slate-900">
          {t('title')}
        </h1>
        <p className="max-w-3xl text-slate-700">
          <ContractText>{openapi.info.description}</ContractText>
        </p>
        {(await getLocale()) !== 'en' && <p className="max-w-3xl text-sm text-slate-600">{t('contractNote')}</p>}
        <ul className="max-w-3xl list-disc space-y-1 pl-5 text-sm text-slate-700">
          <li>{t.rich('intro.base', { code, base: '{APP_URL}/api/v1' })}</li>
          <li>{t.rich('intro.auth', { code })}</li>
          <li>{t('intro.amounts')}</li>
          <li>
            {t.rich('intro.openapi', {
              openapi: (chunks) => (
                <a className="text-sky-800 underline" href="/api/v1/openapi.json">
                  {chunks}
                </a>
              ),
              webhooks: (chunks) => (
                <a className="text-sky-800 underline" href="/docs/webhooks">
                  {chunks}
                </a>
              ),
            })}
          </li>
        </ul>
        <div className="grid gap-4 lg:grid-cols-2">
          <CodeBlock
            label={t('success')}
            code={JSON.stringify({ status: 'success', message: 'Gift card retrieved successfully', data: { card_number: '4921583047261138' } }, null, 2)}
          />
          <CodeBlock
            label={t('error')}
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
          {t('errors.title')}
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">{t.rich('errors.envelope', { code, em })}</p>
        <p className="max-w-3xl text-sm text-slate-700">{t.rich('errors.idempotency', { code, em })}</p>
      </section>

      {tags.map((tag) => (
        <section key={tag.name} id={slug(tag.name)} aria-labelledby={`${slug(tag.name)}-title`} className="space-y-4">
          <div>
            <h2 id={`${slug(tag.name)}-title`} className="text-2xl font-semibold text-slate-900">
              <ContractText>{tag.name}</ContractText>
            </h2>
            <p className="text-sm text-slate-700">
              <ContractText>{tag.description}</ContractText>
            </p>
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
