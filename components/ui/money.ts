/**
 * Minor units to text at the edge of the UI ("ETB 1,234.50"): 100 minor units are one unit in every
 * currency here (SPEC.md). Units and cents are split as integers and handed to Intl as an exact
 * decimal string, never divided as a float, so any amount the ledger holds prints to the cent.
 */
export function formatMoney(minor: number, currency: string): string {
  const abs = BigInt(Math.abs(minor));
  const decimal = `${minor < 0 ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
  // Intl formats a decimal string exactly (ECMA-402 v3); its typings know only numbers.
  return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(decimal as unknown as number);
}
