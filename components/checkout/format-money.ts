/**
 * Minor units to text ("ETB 1,234.50"): 100 minor units are one unit in every
 * currency here (SPEC.md), and the digits are split as integers, never divided as floats.
 */
export function formatMoney(amount: number, currency: string): string {
  const negative = amount < 0;
  const abs = BigInt(Math.abs(amount));
  const units = new Intl.NumberFormat('en-US').format(abs / 100n);
  const cents = String(abs % 100n).padStart(2, '0');
  return `${negative ? '-' : ''}${currency} ${units}.${cents}`;
}
