'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { UseFormSetValue } from 'react-hook-form';
import { lookupRecipient, previewPayout } from '@/server/actions/payouts';
import { parseAmountText, toMinorUnits } from '@/lib/amount-text';
import type { PreviewPayoutInput, SendPayoutInput } from '@/lib/actions/payout.validation';
import { normalizeCardNumber } from '@/lib/cards/card-number';
import { PAYERS } from '@/lib/payouts/payout-rules';
import type { BankOrWallet } from '@/lib/providers/banks';
import { MIN_AMOUNT } from '@/lib/validation';
import { unwrap } from './action-result';

/** The preview's input from what is typed so far: undefined until the source card is a card number. */
export function previewInput(v: Partial<SendPayoutInput>): PreviewPayoutInput | undefined {
  const card = normalizeCardNumber(v.card_number ?? '');
  if (!card || !v.destination_type || !v.charge_payer || !PAYERS[v.destination_type].includes(v.charge_payer)) return undefined;
  const amount = parseAmountText(v.amount ?? '');
  // An amount the payout would refuse on its own (below 1.00) is left out: the card's currency and balance still show.
  const quotable = amount.ok && toMinorUnits(amount.text) >= MIN_AMOUNT;
  const destination = normalizeCardNumber(v.destination_card_number ?? '');
  return {
    card_number: card,
    destination_type: v.destination_type,
    charge_payer: v.charge_payer,
    ...(quotable && { amount: amount.text }),
    ...(v.destination_type === 'card_to_card' && destination && { destination_card_number: destination }),
    ...(v.destination_type === 'b2b' && v.merchant_id?.trim() && { merchant_id: v.merchant_id.trim() }),
    ...(v.destination_type === 'bank' && v.bank_slug && { bank_slug: v.bank_slug }),
    ...(v.destination_type === 'bank' && v.bank_slug && v.account_number?.trim() && { account_number: v.account_number.trim() }),
  };
}

/** The value a quarter second after it stops changing, compared by its JSON so a new object of the same content is no change. */
function useSettled<T>(value: T, ms = 250): T {
  const json = JSON.stringify(value ?? null);
  const [settled, setSettled] = useState(json);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(json), ms);
    return () => clearTimeout(timer);
  }, [json, ms]);
  return JSON.parse(settled) as T;
}

export const recipientQuery = (source: string | undefined, destination: string) => ({
  queryKey: ['payout-recipient', source ?? null, destination] as const,
  queryFn: () => unwrap(lookupRecipient({ card_number: source, destination_card_number: destination })),
  retry: false,
  staleTime: 10_000,
});

/**
 * What the send form shows as the user types: the payout's quote (a quarter second after typing stops), the
 * card-to-card recipient, the card's currency and the banks that take it. A bank chosen for another currency is dropped.
 */
export function usePayoutPreview(values: Partial<SendPayoutInput>, banks: readonly BankOrWallet[], setValue: UseFormSetValue<SendPayoutInput>) {
  const type = values.destination_type ?? 'card_to_card';
  const settledInput = useSettled(previewInput(values));
  const preview = useQuery({
    queryKey: ['payout-preview', settledInput] as const,
    queryFn: () => unwrap(previewPayout(settledInput)),
    enabled: settledInput !== undefined,
    retry: false,
    staleTime: 0,
    // The same card's last figures stay while new ones load, so the bank list and currency do not flicker; another card's never do.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1]?.card_number === settledInput?.card_number ? previous : undefined),
  });
  const sourceNumber = normalizeCardNumber(values.card_number ?? '');
  const destinationNumber = useSettled(type === 'card_to_card' ? normalizeCardNumber(values.destination_card_number ?? '') : undefined);
  const recipient = useQuery({ ...recipientQuery(sourceNumber, destinationNumber ?? ''), enabled: destinationNumber !== undefined });

  const currency = settledInput && preview.data && sourceNumber === settledInput.card_number ? preview.data.currency : undefined;
  const bankChoices = currency ? banks.filter((b) => b.currencies.includes(currency)) : [];
  const bankSlug = values.bank_slug ?? '';
  // A bank chosen for one currency is dropped only when the card's currency is known and the bank does not take it.
  useEffect(() => {
    if (currency && bankSlug && !banks.some((b) => b.slug === bankSlug && b.currencies.includes(currency))) setValue('bank_slug', '');
  }, [currency, bankSlug, banks, setValue]);
  return { settledInput, preview, destinationNumber, recipient, currency, bankChoices, bankSlug };
}
