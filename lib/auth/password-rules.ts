import { z } from 'zod';

/** The one password rule, for sign-up by invitation, resets and changes alike; client forms import it too (no bcrypt here). */
export const passwordSchema = z
  .string({ error: 'Choose a password.' })
  .min(10, { error: 'Use at least 10 characters for the password.' })
  .max(200, { error: 'Use at most 200 characters for the password.' });
