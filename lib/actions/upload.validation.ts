import { z } from 'zod';

/** The upload decisions' one field: which upload. */
export const uploadReferenceSchema = z.object({
  reference: z.string({ error: 'reference is required.' }).trim().min(1).max(64),
});
