import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { looksLikeFormula, MAX_UPLOAD_ROWS, parseCsv } from './parse-csv';

const fileError = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return ((err as ServiceError).detail as Record<string, string>).file;
  }
  throw new Error('expected a file error');
};

describe('parseCsv', () => {
  it('reads a BOM, CRLF lines and trims header names', () => {
    const { headers, records } = parseCsv('\uFEFFPhone_Number , currency\r\n+251911234567,ETB\r\n');
    expect(headers).toEqual(['phone_number', 'currency']);
    expect(records).toEqual([{ line: 2, cells: { phone_number: '+251911234567', currency: 'ETB' } }]);
  });

  it('takes ; as the separator when the header uses it, and keeps commas inside cells', () => {
    const { records } = parseCsv('card_number;amount;account_name\n4111;1,000.50;"Abebe; Kebede"\n');
    expect(records[0].cells).toEqual({ card_number: '4111', amount: '1,000.50', account_name: 'Abebe; Kebede' });
  });

  it('reads quoted commas, doubled quotes and line breaks inside quotes, numbering rows by their first line', () => {
    const { records } = parseCsv('a,b\n"x, y","say ""hi"""\n"two\nlines",z\nlast,1');
    expect(records.map((r) => r.cells)).toEqual([
      { a: 'x, y', b: 'say "hi"' },
      { a: 'two\nlines', b: 'z' },
      { a: 'last', b: '1' },
    ]);
    expect(records.map((r) => r.line)).toEqual([2, 3, 5]);
  });

  it('skips blank lines (also lines of empty cells) but keeps the file line numbers', () => {
    const { records } = parseCsv('a,b\n\n1,2\n,\n\r\n3,4\n\n');
    expect(records.map((r) => [r.line, r.cells.a])).toEqual([
      [3, '1'],
      [6, '3'],
    ]);
  });

  it('marks a row with more cells than the header', () => {
    expect(parseCsv('a\n1,2\n').records[0].cells['']).toBe('extra cells');
  });

  it('refuses empty files, files without rows, unclosed quotes and repeated columns with a file error', () => {
    expect(fileError(() => parseCsv(''))).toMatch(/empty/);
    expect(fileError(() => parseCsv('\uFEFF\n\n'))).toMatch(/empty/);
    expect(fileError(() => parseCsv('a,b\n'))).toMatch(/no rows/);
    expect(fileError(() => parseCsv('a,b\n"1,2\n'))).toMatch(/Line 2 opens a quote/);
    expect(fileError(() => parseCsv('a,A\n1,2'))).toMatch(/appears twice/);
    expect(fileError(() => parseCsv(`a\n${'x'.repeat(1001)}`))).toMatch(/longer than 1000/);
  });

  it(`reads ${MAX_UPLOAD_ROWS} rows and refuses one more`, () => {
    const rows = (n: number) => `phone_number,currency\n${Array.from({ length: n }, (_, i) => `+2519${String(i).padStart(8, '0')},ETB`).join('\n')}`;
    expect(parseCsv(rows(MAX_UPLOAD_ROWS)).records).toHaveLength(MAX_UPLOAD_ROWS);
    expect(fileError(() => parseCsv(rows(MAX_UPLOAD_ROWS + 1)))).toMatch(/more than 10,000 rows/);
  });
});

describe('looksLikeFormula', () => {
  it('flags what a spreadsheet would run, not numbers or phone numbers', () => {
    for (const v of ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '=HYPERLINK("x")', '+1+cmd|x', '\t=1']) expect(looksLikeFormula(v)).toBe(true);
    for (const v of ['+251911234567', '+251 91 123-4567', '+1 (555) 010-0199', '-5', '12.50', 'Abebe', 'a=b']) expect(looksLikeFormula(v)).toBe(false);
  });
});
