import type { ReactNode } from 'react';

/** The reference's one table look: a caption, plain headings, rows (children) that scroll sideways when narrow. */
export function DocsTable({ caption, columns, children }: { caption?: ReactNode; columns: string[]; children: ReactNode }) {
  return (
    <div className="max-w-full overflow-x-auto">
      <table className="w-full min-w-[28rem] text-left text-sm">
        {caption && <caption className="mb-1 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">{caption}</caption>}
        <thead className="border-b border-slate-200 text-slate-600">
          <tr>
            {columns.map((c, i) => (
              <th key={c} scope="col" className={i < columns.length - 1 ? 'py-1 pr-3 font-medium' : 'py-1 font-medium'}>
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top">{children}</tbody>
      </table>
    </div>
  );
}
