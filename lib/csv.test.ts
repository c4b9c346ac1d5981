import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv';
import { unitsText } from './money-text';

describe('csvCell', () => {
  it('defuses text a spreadsheet would run, and leaves numbers, negative ones included, as numbers', () => {
    expect(csvCell('=HYPERLINK("http://evil.test")')).toBe(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(csvCell('+251911')).toBe("'+251911");
    expect(csvCell('-cmd')).toBe("'-cmd");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(unitsText(-5))).toBe('-0.05');
    expect(csvCell('-1234.50')).toBe('-1234.50');
    expect(csvCell(-1234)).toBe('-1234');
    expect(csvCell('-12e3')).toBe("'-12e3");
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', null, true])).toBe('"a,b","say ""hi""","two\nlines",,true\r\n');
  });
});

describe('unitsText', () => {
  it('splits minor units as integers, to the cent, with the sign', () => {
    expect(unitsText(0)).toBe('0.00');
    expect(unitsText(5)).toBe('0.05');
    expect(unitsText(-5)).toBe('-0.05');
    expect(unitsText(123_456_789)).toBe('1234567.89');
    expect(unitsText(9_007_199_254_740_991)).toBe('90071992547409.91');
  });
});
