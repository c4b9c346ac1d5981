/**
 * Minor units as text, the one place money is printed. Split as integers
 * (never divided as a float), so every amount prints to the cent and a
 * negative amount keeps one sign in front: -150 is "-1.50".
 */
function parts(minor: number): { sign: string; whole: string; cents: string } {
  const abs = BigInt(Math.abs(minor));
  return { sign: minor < 0 ? '-' : '', whole: String(abs / 100n), cents: String(abs % 100n).padStart(2, '0') };
}

/** Plain decimal in currency units ("1234.50", "-0.05"): what a spreadsheet sums and a form field takes back. */
export function unitsText(minor: number): string {
  const { sign, whole, cents } = parts(minor);
  return `${sign}${whole}.${cents}`;
}

/** The same with thousands grouped ("1,234.50", "-1.50"), for sentences people read. */
export function groupedUnitsText(minor: number): string {
  const { sign, whole, cents } = parts(minor);
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

/** An amount with its currency as the locale writes it ("ETB 1,234.50", in Amharic "ብር 1,234.50"), exact to the cent. */
export function formatMoney(minor: number, currency: string, locale: 'en' | 'am' = 'en'): string {
  // Intl formats a decimal string exactly (ECMA-402 v3); its typings know only numbers.
  return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    unitsText(minor) as unknown as number,
  );
}
