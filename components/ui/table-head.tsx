/** A column heading; a numeric column is aligned right, as its figures are. */
export type Column = string | { label: string; numeric: true };

const VARIANTS = {
  /** Above a history table that scrolls sideways at phone width. */
  scrolling: { head: 'bg-slate-50 text-left text-slate-600', cell: 'px-3 py-2' },
  /** Above rows that stack into blocks at phone width, where the headings hide. */
  stacking: { head: 'hidden bg-slate-50 text-left text-slate-700 md:table-header-group', cell: 'px-4 py-2' },
};

export function TableHead({ columns, variant }: { columns: Column[]; variant: keyof typeof VARIANTS }) {
  const { head, cell } = VARIANTS[variant];
  return (
    <thead className={head}>
      <tr>
        {columns.map((c) =>
          typeof c === 'string' ? (
            <th key={c} scope="col" className={`${cell} font-medium`}>
              {c}
            </th>
          ) : (
            <th key={c.label} scope="col" className={`${cell} text-right font-medium`}>
              {c.label}
            </th>
          ),
        )}
      </tr>
    </thead>
  );
}
