import { headers } from 'next/headers';
import { cache } from 'react';
import { requestAddress } from '@/lib/api/client-address';
import { cardholderPage } from '@/lib/cards/cardholder-page';
import { getDb } from '@/lib/db/client';
import { returnCardLinkLookup } from '@/lib/rate-limits/wrong-link-tokens';

/**
 * The card page behind a link, read once per request (the language and the page both ask). proxy.ts took a lookup
 * from the reader's address before this ran; a link that opens a card gives it back, one that opens nothing keeps it.
 */
export const cardPageOf = cache(async (token: string) => {
  const page = await cardholderPage(getDb(), token);
  if (page) returnCardLinkLookup(requestAddress(await headers()));
  return page;
});
