import { describe, expect, it } from 'vitest';
import { ethiopicMonthNames, formatEthiopicDate } from './ethiopic-text';

describe('Ethiopian dates in words', () => {
  it('writes the day, the month by name and the year, with no era', () => {
    const at = new Date('2026-12-06T12:00:00Z');
    expect(formatEthiopicDate(at, 'Africa/Addis_Ababa', 'am')).toBe('27 ኅዳር 2019');
    expect(formatEthiopicDate(at, 'Africa/Addis_Ababa', 'en')).toBe('Hedar 27, 2019');
    expect(formatEthiopicDate(new Date('2023-09-11T12:00:00Z'), 'UTC', 'am')).toBe('6 ጳጉሜን 2015');
    expect(formatEthiopicDate(new Date('2023-09-11T12:00:00Z'), 'UTC', 'en')).toBe('Pagumen 6, 2015');
  });

  it('writes the date on the zone’s wall clock', () => {
    const at = new Date('2024-09-10T22:00:00Z');
    expect(formatEthiopicDate(at, 'UTC', 'am')).toBe('5 ጳጉሜን 2016');
    expect(formatEthiopicDate(at, 'Africa/Addis_Ababa', 'am')).toBe('1 መስከረም 2017');
  });

  it('names the 13 months from ICU, Meskerem first and Pagume last', () => {
    expect(ethiopicMonthNames('am')).toEqual(['መስከረም', 'ጥቅምት', 'ኅዳር', 'ታኅሣሥ', 'ጥር', 'የካቲት', 'መጋቢት', 'ሚያዝያ', 'ግንቦት', 'ሰኔ', 'ሐምሌ', 'ነሐሴ', 'ጳጉሜን']);
    const en = ethiopicMonthNames('en');
    expect(en).toHaveLength(13);
    expect([en[0], en[2], en[10], en[12]]).toEqual(['Meskerem', 'Hedar', 'Hamle', 'Pagumen']);
  });
});
