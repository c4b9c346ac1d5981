import { z } from 'zod';
import { locationIdSchema, newLocationSchema } from '../locations/location-request';

export { newLocationSchema };

export const setUserLocationSchema = z.object({
  user_id: z.number({ error: 'user_id must be a number.' }).int().positive().max(2_147_483_647, { error: 'user_id is not a known id.' }),
  location_id: locationIdSchema.nullable(),
});
