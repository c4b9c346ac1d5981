/**
 * The message namespaces (or single messages) the browser is sent: those client components read (useTranslations in
 * a file the browser loads). The whole catalogue put 144 KB (212 KB in Amharic) into every page, and a server rendered
 * the sign-in page 38 times a second with it against 47 without (31 against 46 in Amharic).
 * tests/rules/client-messages.test.ts fails on a namespace a client file reads that is missing here, and on one here
 * that no client file reads.
 */
export const CLIENT_MESSAGES = [
  'Account',
  'Approvals',
  'Calendars',
  'Card',
  'CardActions',
  'Cards',
  'Checkout.live',
  'ConfirmDialog',
  'CopyField',
  'DevelopersKeys',
  'DevelopersLog',
  'DevelopersWebhook',
  'ErrorPages',
  'Errors',
  'FormErrors',
  'Locations',
  'Nav',
  'NewCard',
  'NewPayment',
  'Overview',
  'Payments',
  'Payouts',
  'Refunds',
  'Reports',
  'Search',
  'SearchResults',
  'SendMoney',
  'Settings',
  'Shell',
  'Shop.eyebrow',
  'Shop.form',
  'Shop.testMode',
  'ShopSettings',
  'SignIn',
  'SignInLinks',
  'SpendCode',
  'TeamForms',
  'Till',
  'TwoFactorSetup',
  'Uploads',
];

interface Messages {
  [key: string]: string | Messages;
}

/** The part of a catalogue CLIENT_MESSAGES names, nested as in the catalogue. */
export function clientMessages(messages: Messages): Messages {
  const picked: Messages = {};
  for (const namespace of CLIENT_MESSAGES) {
    const parts = namespace.split('.');
    const found = parts.reduce<Messages | string | undefined>((at, part) => (typeof at === 'object' ? at[part] : undefined), messages);
    if (found === undefined) continue;
    let to = picked;
    for (const part of parts.slice(0, -1)) {
      to[part] ??= {};
      to = to[part] as Messages;
    }
    to[parts[parts.length - 1]] = found;
  }
  return picked;
}
