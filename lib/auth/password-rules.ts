import { z } from 'zod';

/** The one password rule, for sign-up by invitation, resets and changes alike; client forms import it too (no bcrypt here). */
export const passwordSchema = z
  .string({ error: 'password is required.' })
  .min(10, { error: 'password must be at least 10 characters.' })
  .max(200, { error: 'password must be at most 200 characters.' });
