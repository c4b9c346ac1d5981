/** Minor units to a display string, at the edge of the UI only. */
export function formatMoney(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  // Minor units are cents for every currency we issue (SPEC: 100 means 1 unit).
  return new Intl.NumberFormat('en', { style: 'currency', currency, minimumFractionDigits: Math.min(2, Math.max(digits, 2)), maximumFractionDigits: 2 }).format(
    minor / 100,
  );
}
