/** Money at the edge of the UI ("ETB 1,234.50"): the one printer lives in lib/money-text. */
export { formatMoney } from '@/lib/money-text';
