/** A card number as people paste it ("7115 8271 5403 7173", "7115-8271-…") to its 16 digits; undefined when it is not one. */
export function normalizeCardNumber(typed: string): string | undefined {
  const digits = typed.replace(/[\s\u00a0-]/g, '');
  return /^\d{16}$/.test(digits) ? digits : undefined;
}
