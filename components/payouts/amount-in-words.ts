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

/** An amount in minor units in words, with its currency when known: "one hundred fifty thousand ETB and 50 cents". */
export function amountInWords(minor: number, currency?: string): string {
  const cents = minor % 100;
  return `${unitsInWords(Math.floor(minor / 100))}${currency ? ` ${currency}` : ''}${cents ? ` and ${cents} cents` : ''}`;
}
