export type CsvValue = string | number | boolean | null | undefined;

/**
 * Quotes what needs quoting, and defuses text a spreadsheet would run as a
 * formula (an account name such as "=HYPERLINK(...)" comes from an API caller).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Minor units as a plain decimal in currency units ("1234.50", "-0.05"): what a
 * spreadsheet sums. Split as integers, never divided as a float, so every amount prints to the cent.
 */
export function unitsText(minor: number): string {
  const abs = BigInt(Math.abs(minor));
  return `${minor < 0 ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

/** A time column's header names the zone its values are in, so a reader of the file knows whose day it is. */
export const timeColumn = (name: string, timeZone: string) => `${name} (${timeZone})`;
