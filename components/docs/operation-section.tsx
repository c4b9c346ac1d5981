import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { CodeBlock } from './code-block';
import { curlSample, typescriptSample } from './code-samples';
import { DocsTable } from './docs-table';
import { MethodBadge } from './method-badge';
import { anchorOf, resolve, type DocumentedOperation, type Parameter } from './openapi-document';
import { ContractText } from './contract-text';
import { describeType, Notes, SchemaFields } from './schema-fields';

const code = (chunks: ReactNode) => <code className="font-mono text-[13px]">{chunks}</code>;

async function ParameterTable({ parameters }: { parameters: Parameter[] }) {
  const t = await getTranslations('Docs');
  return (
    <DocsTable caption={t('operation.parameters')} columns={[t('operation.name'), t('operation.in'), t('fields.type'), t('fields.notes')]}>
      {parameters.map((p) => (
        <tr key={`${p.in}-${p.name}`}>
          <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{p.name}</td>
          <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-700">{p.in}</td>
          <td className="py-1.5 pr-3 font-mono text-[13px] break-words text-slate-700">
            {describeType(p.schema)}
            {p.schema.default !== undefined && ` = ${JSON.stringify(p.schema.default)}`}
          </td>
          <td className="py-1.5 text-slate-700">
            <Notes parts={[p.required ? t('fields.required') : t('fields.optional'), p.description && <ContractText>{p.description}</ContractText>]} />
          </td>
        </tr>
      ))}
    </DocsTable>
  );
}

async function ErrorTable({ op }: { op: DocumentedOperation }) {
  const t = await getTranslations('Docs');
  const rows = Object.entries(op.responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([status, r]) => {
      const response = resolve(r);
      return Object.values(response.content?.['application/json'].examples ?? {}).map((ex) => {
        const value = ex.value as { message: string; error: unknown };
        return { status, message: value.message, condition: typeof value.error === 'string' ? value.error : undefined };
      });
    });
  if (!rows.length) return null;
  return (
    <DocsTable caption={t('operation.errors')} columns={['HTTP', t('operation.message'), t('operation.when')]}>
      {rows.map((row) => (
        <tr key={`${row.status}-${row.message}-${row.condition}`}>
          <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{row.status}</td>
          <td className="py-1.5 pr-3 text-slate-900">
            <ContractText>{row.message}</ContractText>
          </td>
          <td className="py-1.5 text-slate-700">
            {row.condition === undefined ? t.rich('operation.errorObject', { code }) : <ContractText>{row.condition}</ContractText>}
          </td>
        </tr>
      ))}
    </DocsTable>
  );
}

/** One operation of the document: what it takes, what it answers, how to call it. */
export async function OperationSection({ op }: { op: DocumentedOperation }) {
  const t = await getTranslations('Docs');
  const parameters = (op.parameters ?? []).map((p) => resolve(p));
  const body = op.requestBody?.content['application/json'];
  const bodySchemas = body ? (body.schema.oneOf ?? [body.schema]) : [];
  const [successStatus, success] = Object.entries(op.responses).find(([s]) => Number(s) < 300)!;
  const successExample = Object.values(success.content?.['application/json'].examples ?? {})[0]?.value;
  const base = op.api === 'admin' ? '/api/admin' : '/api/v1';
  return (
    <section id={anchorOf(op)} aria-labelledby={`${anchorOf(op)}-title`} className="scroll-mt-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h3 id={`${anchorOf(op)}-title`} className="text-lg font-semibold text-slate-900">
        <ContractText>{op.summary}</ContractText>
      </h3>
      <p className="mt-1 flex flex-wrap items-center gap-2">
        <MethodBadge method={op.method} />
        <code className="font-mono text-sm break-all text-slate-800">
          {base}
          {op.path}
        </code>
        {op.security?.length === 0 && <span className="text-xs text-slate-600">{t('operation.noAuth')}</span>}
        {op['x-required-scope'] && (
          <span className="text-xs text-slate-600">
            {t.rich('operation.scope', { scope: op['x-required-scope'], code: (chunks) => <code className="font-mono">{chunks}</code> })}
          </span>
        )}
      </p>
      {op.description && (
        <p className="mt-2 text-sm text-slate-700">
          <ContractText>{op.description}</ContractText>
        </p>
      )}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          {parameters.length > 0 && <ParameterTable parameters={parameters} />}
          {bodySchemas.map((s) => (
            <SchemaFields
              key={s.$ref ?? 'body'}
              schema={s}
              caption={bodySchemas.length > 1 ? t.rich('operation.bodyOf', { code, schema: s.$ref?.split('/').pop() ?? '' }) : t('operation.body')}
            />
          ))}
          <p className="text-sm text-slate-700">
            {success.content && op.security?.length !== 0
              ? t.rich('operation.answersWithData', {
                  status: successStatus,
                  type: describeType(success.content['application/json'].schema.properties?.data ?? {}),
                  strong: (chunks) => <strong>{chunks}</strong>,
                  code,
                })
              : t.rich('operation.answers', { status: successStatus, strong: (chunks) => <strong>{chunks}</strong> })}
          </p>
          <ErrorTable op={op} />
        </div>
        <div className="min-w-0 space-y-3">
          <CodeBlock mono label="curl" code={curlSample(op)} />
          <CodeBlock label="TypeScript" code={typescriptSample(op)} />
          {successExample !== undefined && (
            <CodeBlock label={t('operation.response', { status: successStatus })} code={JSON.stringify(successExample, null, 2)} />
          )}
        </div>
      </div>
    </section>
  );
}
