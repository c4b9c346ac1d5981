import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { getCheckout } from '@/lib/payments/get-checkout';

/** A checkout link's payment and business, read once per request: the language, the title and the page all ask for it. */
export const checkoutOf = cache((reference: string) => getCheckout(getDb(), reference));
