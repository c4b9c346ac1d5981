/** What the customer must do next for a live direct charge, in the words the API and the dashboard show. */
export function nextActionMessage(type: 'ussd' | 'otp' | string, linkReference: string): string {
  return type === 'otp'
    ? `Ask the customer for the one-time code their wallet sent them and send it to POST /api/v1/card/payment/${linkReference}/authorize.`
    : 'The customer approves the payment request on their phone.';
}
