import { z } from 'zod';

const LOCATION_NAME_MAX = 80;

export const newLocationSchema = z.object({
  name: z
    .string({ error: (iss) => (iss.input === undefined ? 'name is required.' : 'name must be a string.') })
    .trim()
    .min(1, { error: 'name must not be empty.' })
    .max(LOCATION_NAME_MAX, { error: `name must be at most ${LOCATION_NAME_MAX} characters.` }),
});

/** What a request names a branch by: a positive id (anything else is a branch no business has). */
export const locationIdSchema = z
  .number({ error: 'location_id must be a number.' })
  .int({ error: 'location_id must be a whole number.' })
  .positive({ error: 'location_id must be a positive number.' })
  .max(2_147_483_647, { error: 'location_id is not a known id.' });
