import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ContractText } from './contract-text';
import { DocsTable } from './docs-table';
import { resolve, type JsonSchema } from './openapi-document';

/** A short, human reading of a JSON Schema's type: `string`, `ETB | USD`, `integer ≥ 100`, `GiftCard[]`. */
export function describeType(node: JsonSchema): string {
  if (node.$ref) return node.$ref.split('/').pop()!;
  const s = node;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((e) => JSON.stringify(e)).join(' | ');
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return [...new Set(alternatives.map(describeType))].join(' | ');
  if (s.type === 'array' && s.items) return `${describeType(s.items)}[]`;
  const type = Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
  return s.format ? `${type} (${s.format})` : type;
}

async function constraints(s: JsonSchema): Promise<ReactNode[]> {
  const t = await getTranslations('Docs');
  const code = (chunks: ReactNode) => <code className="font-mono text-[13px]">{chunks}</code>;
  const out: ReactNode[] = [];
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) out.push(t('fields.minLength', { n: s.minLength }));
  if (s.maxLength !== undefined) out.push(t('fields.maxLength', { n: s.maxLength }));
  if (s.pattern !== undefined) out.push(t.rich('fields.pattern', { code, pattern: s.pattern }));
  if (s.default !== undefined) out.push(t.rich('fields.default', { code, value: JSON.stringify(s.default) }));
  return out;
}

/** Parts of a notes cell, separated as before: "required; ≥ 100; description". */
export function Notes({ parts }: { parts: ReactNode[] }) {
  return parts.filter(Boolean).map((part, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed list drawn once, in order
    <span key={i}>
      {i > 0 && '; '}
      {part}
    </span>
  ));
}

/** The fields of an object schema as a table, in the order the API sends them. */
export async function SchemaFields({ schema, caption }: { schema: JsonSchema; caption: ReactNode }) {
  const t = await getTranslations('Docs');
  const object = resolve(schema);
  const required = new Set(object.required ?? []);
  const rows = Object.entries(object.properties ?? {});
  if (!rows.length) return null;
  return (
    <DocsTable caption={caption} columns={[t('fields.field'), t('fields.type'), t('fields.notes')]}>
      {
        await Promise.all(
          rows.map(async ([name, p]) => {
            const description = resolve(p).description;
            const notes = [
              required.has(name) ? t('fields.required') : t('fields.optional'),
              ...(await constraints(resolve(p))),
              description && <ContractText>{description}</ContractText>,
            ];
            return (
              <tr key={name}>
                <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{name}</td>
                <td className="py-1.5 pr-3 font-mono text-[13px] break-words text-slate-700">{describeType(p)}</td>
                <td className="py-1.5 text-slate-700">
                  <Notes parts={notes} />
                </td>
              </tr>
            );
          }),
        )
      }
    </DocsTable>
  );
}
