import { headers } from 'next/headers';
import { cache } from 'react';
import { requestAddress } from '@/lib/api/client-address';
import { cardholderPage } from '@/lib/cards/cardholder-page';
import { getDb } from '@/lib/db/client';
import { wrongLinkTokens } from '@/lib/rate-limits/wrong-link-tokens';

/**
 * The card page behind a link, read once per request (the language and the page both ask). A link that opens
 * nothing counts against its reader's address: proxy.ts refuses an address past the limit before any lookup.
 */
export const cardPageOf = cache(async (token: string) => {
  const page = await cardholderPage(getDb(), token);
  if (!page) wrongLinkTokens().take(requestAddress(await headers()));
  return page;
});
