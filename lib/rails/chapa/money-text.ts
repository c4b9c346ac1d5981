/** Minor units as currency units for people reading notes ("1,234.50"); amounts for Chapa use toMajorUnits. */
export const formatMinor = (minor: number) => `${Math.trunc(minor / 100).toLocaleString('en-US')}.${String(Math.abs(minor % 100)).padStart(2, '0')}`;
