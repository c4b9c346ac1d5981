import { z } from 'zod';
import { withoutControlCharacters } from '../validation';

/** The name a key made in the back office gets, until the business renames it. */
export const BACK_OFFICE_KEY_NAME = 'Back office key';

/** A key's name: what the business calls it, shown beside its prefix and last four. */
export const apiKeyNameSchema = z
  .string({ error: 'Give the key a name.' })
  .trim()
  .min(1, { error: 'Give the key a name, such as “Shop backend”.' })
  .max(60, { error: 'Keep the name to 60 characters.' })
  .refine((v) => withoutControlCharacters(v) === v, { error: 'The name cannot contain control characters.' })
  // \p{C} also holds the invisible format characters (U+202E turns text around, U+200B hides in it) that would make a name read as another.
  .refine((v) => !/\p{C}/u.test(v), { error: 'The name cannot contain invisible or control characters.' });
