const ONES = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES: [number, string][] = [
  [1_000_000_000, 'billion'],
  [1_000_000, 'million'],
  [1_000, 'thousand'],
];

function belowThousand(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const rest = n % 100;
  if (rest >= 20) parts.push(TENS[Math.floor(rest / 10)] + (rest % 10 ? `-${ONES[rest % 10]}` : ''));
  else if (rest > 0) parts.push(ONES[rest]);
  return parts.join(' ');
}

/** Whole currency units in English words, for confirming a large amount: 1500000 → "one million five hundred thousand". */
export function unitsInWords(units: number): string {
  if (units === 0) return 'zero';
  const parts: string[] = [];
  let rest = Math.floor(units);
  for (const [size, name] of SCALES) {
    if (rest >= size) {
      parts.push(`${unitsInWords(Math.floor(rest / size))} ${name}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(belowThousand(rest));
  return parts.join(' ');
}

const AM_ONES = ['', 'አንድ', 'ሁለት', 'ሦስት', 'አራት', 'አምስት', 'ስድስት', 'ሰባት', 'ስምንት', 'ዘጠኝ'];
const AM_TENS = ['', 'አሥር', 'ሃያ', 'ሠላሳ', 'አርባ', 'ሃምሳ', 'ስልሳ', 'ሰባ', 'ሰማንያ', 'ዘጠና'];
const AM_SCALES: [number, string][] = [
  [1_000_000_000, 'ቢሊዮን'],
  [1_000_000, 'ሚሊዮን'],
  [1_000, 'ሺህ'],
];

function belowThousandAm(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(`${AM_ONES[Math.floor(n / 100)]} መቶ`);
  const tens = Math.floor((n % 100) / 10);
  const ones = n % 10;
  // Eleven to nineteen are "ten and one" (አሥራ አንድ); other tens stand alone before their ones (ሃያ አምስት).
  if (tens === 1 && ones > 0) parts.push(`አሥራ ${AM_ONES[ones]}`);
  else {
    if (tens > 0) parts.push(AM_TENS[tens]);
    if (ones > 0) parts.push(AM_ONES[ones]);
  }
  return parts.join(' ');
}

/** Whole currency units in Amharic words: 1500000 → "አንድ ሚሊዮን አምስት መቶ ሺህ". */
export function unitsInAmharicWords(units: number): string {
  if (units === 0) return 'ዜሮ';
  const parts: string[] = [];
  let rest = Math.floor(units);
  for (const [size, name] of AM_SCALES) {
    if (rest >= size) {
      parts.push(`${unitsInAmharicWords(Math.floor(rest / size))} ${name}`);
      rest %= size;
    }
  }
  if (rest > 0) parts.push(belowThousandAm(rest));
  return parts.join(' ');
}

/**
 * An amount in minor units in words, with its currency when known: "one hundred fifty thousand ETB and 50 cents",
 * in Amharic "አንድ መቶ ሃምሳ ሺህ ብር ከሃምሳ ሳንቲም" (birr by name, another currency by its code).
 */
export function amountInWords(minor: number, currency?: string, locale: 'en' | 'am' = 'en'): string {
  const cents = minor % 100;
  if (locale === 'am') {
    const unit = currency === 'ETB' ? 'ብር' : currency;
    return `${unitsInAmharicWords(Math.floor(minor / 100))}${unit ? ` ${unit}` : ''}${cents ? ` ከ${unitsInAmharicWords(cents)} ሳንቲም` : ''}`;
  }
  return `${unitsInWords(Math.floor(minor / 100))}${currency ? ` ${currency}` : ''}${cents ? ` and ${cents} cents` : ''}`;
}
