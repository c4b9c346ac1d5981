import { describe, expect, it } from 'vitest';
import { amountInWords, unitsInAmharicWords, unitsInWords } from './amount-in-words';

describe('amounts in words for confirmation', () => {
  it.each([
    [0, 'zero'],
    [7, 'seven'],
    [42, 'forty-two'],
    [100_000, 'one hundred thousand'],
    [1_500_000, 'one million five hundred thousand'],
    [1_000_000_000, 'one billion'],
    [10_000_000_000, 'ten billion'],
    [123_456_789, 'one hundred twenty-three million four hundred fifty-six thousand seven hundred eighty-nine'],
  ])('%i is %s', (n, words) => expect(unitsInWords(n)).toBe(words));

  it('adds the currency and cents', () => {
    expect(amountInWords(15_000_050, 'ETB')).toBe('one hundred fifty thousand ETB and 50 cents');
    expect(amountInWords(10_000_000)).toBe('one hundred thousand');
  });

  it.each([
    [0, 'ዜሮ'],
    [7, 'ሰባት'],
    [11, 'አሥራ አንድ'],
    [42, 'አርባ ሁለት'],
    [100_000, 'አንድ መቶ ሺህ'],
    [1_500_000, 'አንድ ሚሊዮን አምስት መቶ ሺህ'],
    [123_456_789, 'አንድ መቶ ሃያ ሦስት ሚሊዮን አራት መቶ ሃምሳ ስድስት ሺህ ሰባት መቶ ሰማንያ ዘጠኝ'],
  ])('%i in Amharic is %s', (n, words) => expect(unitsInAmharicWords(n)).toBe(words));

  it('says birr and cents in Amharic', () => {
    expect(amountInWords(15_000_050, 'ETB', 'am')).toBe('አንድ መቶ ሃምሳ ሺህ ብር ከሃምሳ ሳንቲም');
    expect(amountInWords(10_000_000, 'USD', 'am')).toBe('አንድ መቶ ሺህ USD');
  });
});
