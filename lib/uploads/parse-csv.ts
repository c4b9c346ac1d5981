import { ServiceError } from '../errors';

export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
export const MAX_UPLOAD_ROWS = 10_000;
const MAX_CELL = 1_000;
const MAX_COLUMNS = 30;

export interface CsvRecord {
  /** The file's line the record starts on (the header is line 1), as a spreadsheet numbers it. */
  line: number;
  cells: Record<string, string>;
}

const fileError = (message: string) => new ServiceError('validation_error', { file: message });

/**
 * A CSV file as spreadsheets write it: an optional UTF-8 BOM, `,` or `;` between
 * cells (whichever the header line uses), quoted cells with `""` for a quote and
 * line breaks inside, CRLF or LF. Blank lines are skipped. Header names are
 * trimmed and lower-cased. Refuses, before keeping anything more, a file past
 * MAX_UPLOAD_ROWS records.
 */
export function parseCsv(text: string): { headers: string[]; records: CsvRecord[] } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.includes('\u0000')) throw fileError('The file is not a text CSV file (it holds NUL bytes).');
  const separator = separatorOf(body);
  let headers: string[] | undefined;
  const records: CsvRecord[] = [];
  for (const { line, cells } of rawRecords(body, separator)) {
    if (cells.every((c) => c.trim() === '')) continue;
    if (!headers) {
      headers = cells.map((c) => c.trim().toLowerCase());
      if (headers.length > MAX_COLUMNS) throw fileError(`The file has ${headers.length} columns; at most ${MAX_COLUMNS} are read.`);
      const seen = new Set<string>();
      for (const h of headers) {
        if (h && seen.has(h)) throw fileError(`The column ${h} appears twice in the header line.`);
        seen.add(h);
      }
      continue;
    }
    if (records.length === MAX_UPLOAD_ROWS)
      throw fileError(`The file has more than ${MAX_UPLOAD_ROWS.toLocaleString('en')} rows; split it into smaller files.`);
    const row: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (h) row[h] = (cells[i] ?? '').trim();
    });
    if (cells.length > headers.length && cells.slice(headers.length).some((c) => c.trim() !== '')) row[''] = 'extra cells';
    records.push({ line, cells: row });
  }
  if (!headers) throw fileError('The file is empty: it needs a header line and at least one row.');
  if (records.length === 0) throw fileError('The file has a header line but no rows.');
  return { headers, records };
}

/** The header line's separator: the one of `;` and `,` it holds more of outside quotes. */
function separatorOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas++;
    else if (!quoted && ch === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

function* rawRecords(text: string, separator: string): Generator<{ line: number; cells: string[] }> {
  let line = 1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    let ended = false;
    while (i < n && !ended) {
      const ch = text[i];
      if (quoted) {
        if (ch === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          quoted = false;
        } else {
          if (ch === '\n') line++;
          cell += ch;
        }
        i++;
      } else if (ch === '"' && cell.trim() === '') {
        quoted = true;
        cell = '';
        i++;
      } else if (ch === separator) {
        cells.push(cell);
        cell = '';
        i++;
      } else if (ch === '\r' || ch === '\n') {
        i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
        line++;
        ended = true;
      } else {
        cell += ch;
        i++;
      }
      if (cell.length > MAX_CELL) throw fileError(`Line ${start} has a cell longer than ${MAX_CELL} characters.`);
    }
    if (quoted) throw fileError(`Line ${start} opens a quote that is never closed.`);
    cells.push(cell);
    yield { line: start, cells };
  }
}

/**
 * Text a spreadsheet would run as a formula (`=1+1`, `+cmd`, `-2+3`, `@SUM`):
 * refused in a row's text fields. A plain number, or a phone number written `+251 91 123 4567`, is not one.
 */
export function looksLikeFormula(value: string): boolean {
  return /^[=+\-@\t\r]/.test(value) && !/^[+-]?\d+(\.\d+)?$/.test(value) && !/^\+\d[\d ().-]*$/.test(value);
}
