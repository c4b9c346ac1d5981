/** "26 Nov 2027": the calendar day an expiry falls on in the business's time zone (a card is usable to that day's end). */
export function expiryDay(at: Date | string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(at));
}
