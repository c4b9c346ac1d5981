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

function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  if (s.minimum !== undefined) out.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) out.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  if (s.pattern !== undefined) out.push(`pattern ${s.pattern}`);
  if (s.default !== undefined) out.push(`default ${JSON.stringify(s.default)}`);
  return out;
}

/** The fields of an object schema as a table, in the order the API sends them. */
export function SchemaFields({ schema, caption }: { schema: JsonSchema; caption: string }) {
  const object = resolve(schema);
  const required = new Set(object.required ?? []);
  const rows = Object.entries(object.properties ?? {});
  if (!rows.length) return null;
  return (
    <DocsTable caption={caption} columns={['Field', 'Type', 'Notes']}>
      {rows.map(([name, p]) => {
        const notes = [required.has(name) ? 'required' : 'optional', ...constraints(resolve(p)), resolve(p).description ?? ''].filter(Boolean);
        return (
          <tr key={name}>
            <td className="py-1.5 pr-3 font-mono text-[13px] text-slate-900">{name}</td>
            <td className="py-1.5 pr-3 font-mono text-[13px] break-words text-slate-700">{describeType(p)}</td>
            <td className="py-1.5 text-slate-700">{notes.join('; ')}</td>
          </tr>
        );
      })}
    </DocsTable>
  );
}
