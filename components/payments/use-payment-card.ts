'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { lookupPaymentCard } from '@/server/actions/payments';
import { normalizeCardNumber } from '@/lib/cards/card-number';
import type { BankOrWallet } from '@/lib/providers/banks';
import { unwrap } from '@/components/payouts/action-result';

/**
 * The card a payment is for, looked up once the typed number is a card number: its currency chooses the wallets
 * offered. A wallet chosen for one currency is dropped only when the card's currency is known and the wallet does not take it.
 */
export function usePaymentCard(typedCard: string | undefined, paymentMethod: string | undefined, wallets: readonly BankOrWallet[], clearWallet: () => void) {
  const cardNumber = normalizeCardNumber(typedCard ?? '');
  const card = useQuery({
    queryKey: ['payment-card', cardNumber ?? null] as const,
    queryFn: () => unwrap(lookupPaymentCard({ card_number: cardNumber })),
    enabled: cardNumber !== undefined,
    retry: false,
  });
  const currency = cardNumber && card.data ? card.data.currency : undefined;
  const walletChoices = currency ? wallets.filter((w) => w.currencies.includes(currency)) : [];
  useEffect(() => {
    if (currency && paymentMethod && !wallets.some((w) => w.slug === paymentMethod && w.currencies.includes(currency))) clearWallet();
  }, [currency, paymentMethod, wallets, clearWallet]);
  return { card, currency, walletChoices };
}
