import { useLocale, useTranslations } from 'next-intl';

/**
 * The form checks' sentences (zod messages written in English in lib/, on the server and in the browser alike),
 * each tied to its catalogue key: the one place a field message finds its words in the reader's language.
 * A message not listed stays as lib/ wrote it.
 */
const FIELD_MESSAGES: [RegExp | string, string][] = [
  ['Enter an amount.', 'amountMissing'],
  ['Use a dot for the decimals, e.g. 25.50.', 'amountDecimalComma'],
  ['Enter an amount like 25, 1,000 or 25.50.', 'amountShape'],
  ['Use at most two decimals.', 'amountDecimals'],
  [/^The smallest amount is ([\d,.]+)\.$/, 'amountMin'],
  [/^The most one amount can be is ([\d,.]+)\.$/, 'amountMax'],
  ['Enter an amount above zero.', 'amountAboveZero'],
  ['Enter the source card number.', 'sourceCardMissing'],
  ['The source card number is 16 digits (spaces and dashes are fine).', 'sourceCardShape'],
  ['Enter the destination card number.', 'destinationCardMissing'],
  ['The destination card number is 16 digits (spaces and dashes are fine).', 'destinationCardShape'],
  ['Enter the card number.', 'cardMissing'],
  ['The card number is 16 digits (spaces and dashes are fine).', 'cardShape'],
  ['Choose a destination type.', 'destinationType'],
  ['Choose who pays the fee.', 'chargePayer'],
  [/^For this destination the fee is paid by /, 'chargePayerFits'],
  ['Enter the merchant id of the business to pay.', 'merchantMissing'],
  ['Choose a bank or wallet.', 'bankMissing'],
  ['Enter the account number.', 'accountNumberMissing'],
  ['Enter the account holder’s name.', 'accountNameMissing'],
  ['The form lost its submission id; reload the page.', 'submissionLost'],
  ['Choose hosted link or direct charge.', 'paymentType'],
  ['At most 255 characters.', 'merchantReferenceLong'],
  ['Enter the wallet’s phone number, e.g. 0911 234 567 or +251 911 234 567.', 'walletPhone'],
  ['Choose a wallet.', 'walletMissing'],
  [/^Keep the reason to (\d+) characters\.$/, 'refundReasonLong'],
  [/^Keep the receipt number to (\d+) characters\.$/, 'receiptLong'],
  [/^Keep the reason to (\d+) characters or fewer\.$/, 'disableReasonLong'],
  ['Choose where the money comes from.', 'topUpSource'],
  ['Give the new expiry date as YYYY-MM-DD.', 'expiryDate'],
  ['Say why the card is extended.', 'extendReason'],
  ['The reason must be at most 200 characters.', 'extendReasonLong'],
  [/^Keep the note to (\d+) characters or fewer\.$/, 'noteLong'],
  ['Choose whether to add to the card or take from it.', 'adjustDirection'],
  ['Choose a reason.', 'adjustReason'],
  ['Say what the adjustment is for when the reason is Other.', 'adjustNote'],
  // The upload form's file checks.
  ['The file is not a text CSV file (it holds NUL bytes).', 'fileNotText'],
  [/^The file has (\d+) columns; at most \d+ are read\.$/, 'fileColumns'],
  [/^The column (.+) appears twice in the header line\.$/, 'fileColumnTwice'],
  [/^The file has more than ([\d,]+) rows; split it into smaller files\.$/, 'fileRows'],
  ['The file is empty: it needs a header line and at least one row.', 'fileEmpty'],
  ['The file has a header line but no rows.', 'fileNoRows'],
  [/^Line (\d+) has a cell longer than \d+ characters\.$/, 'fileCellLong'],
  [/^Line (\d+) opens a quote that is never closed\.$/, 'fileQuote'],
  [/^Unknown column (.+): the columns are /, 'fileUnknownColumn'],
  [/^The header line lacks (.+)\.$/, 'fileMissingColumns'],
  ['The file is not UTF-8 text: save it as "CSV UTF-8".', 'fileNotUtf8'],
  ['Send the file as text/csv.', 'fileNotCsv'],
  // The team's invitation form.
  ['Choose the branch this cashier works at: their spends are recorded there.', 'cashierBranch'],
];

function keyOf(message: string): { key: string; value: string } | undefined {
  for (const [pattern, key] of FIELD_MESSAGES) {
    if (typeof pattern === 'string') {
      if (pattern === message) return { key, value: '' };
      continue;
    }
    const m = pattern.exec(message);
    if (m) return { key, value: m[1] ?? '' };
  }
  return undefined;
}

/** A field message in the reader's language: English as lib/ wrote it, another language from the catalogue. */
export function useFieldText(): (message: string) => string {
  const t = useTranslations('FormErrors');
  const locale = useLocale();
  return (message) => {
    if (locale === 'en') return message;
    const found = keyOf(message);
    return found ? t(`fields.${found.key}`, { value: found.value }) : message;
  };
}
