import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, groupedUnitsText, unitsText } from './money-text';

describe('money text', () => {
  it('keeps one sign in front of a negative amount, whatever its size', () => {
    expect(unitsText(-150)).toBe('-1.50');
    expect(groupedUnitsText(-150)).toBe('-1.50');
    expect(groupedUnitsText(-5)).toBe('-0.05');
    expect(groupedUnitsText(-123456789)).toBe('-1,234,567.89');
    expect(formatMoney(-150, 'ETB').replace(/\s/g, ' ')).toBe('-ETB 1.50');
  });

  it('writes the Ethiopian birr as ብር in Amharic, exact to the cent', () => {
    expect(formatMoney(123456789, 'ETB', 'am').replace(/\s/g, ' ')).toBe('ብር 1,234,567.89');
    expect(formatMoney(-5, 'ETB', 'am').replace(/\s/g, ' ')).toBe('-ብር 0.05');
  });

  it('groups thousands only in the text people read', () => {
    expect(unitsText(123456789)).toBe('1234567.89');
    expect(groupedUnitsText(123456789)).toBe('1,234,567.89');
    expect(groupedUnitsText(0)).toBe('0.00');
    expect(unitsText(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('reads back to the same minor units for every safe integer', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        const text = unitsText(minor);
        expect(BigInt(text.replace('.', ''))).toBe(BigInt(minor));
        expect(groupedUnitsText(minor).replace(/,/g, '')).toBe(text);
      }),
    );
  });
});
