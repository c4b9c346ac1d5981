import { z } from 'zod';
import { newLocationSchema } from '../../locations/location-request';
import { defineContracts } from './contract';
import { reg } from './schemas';

const locationSchema = reg(
  'Location',
  z.strictObject({ id: z.int().meta({ description: 'What location_id names in redemptions and holds' }), name: z.string() }),
  'Beyond SPEC.md. A branch of your business, the same in test and live mode.',
);

export type Location = z.output<typeof locationSchema>;

const locationExample: Location = { id: 3, name: 'Bole branch' };

/** The business's branches, where its tills redeem. */
export const locationContracts = defineContracts({
  createLocation: {
    method: 'post',
    path: '/locations',
    scope: 'payments',
    tag: 'Locations',
    summary: 'Name a branch',
    description:
      'Beyond SPEC.md. Names a branch of your business (unique within it, whatever the case), for location_id in redemptions and holds. Branches belong to the business, not to a mode. Needs the payments scope.',
    body: { schemas: { CreateLocationRequest: newLocationSchema }, examples: { CreateLocationRequest: { name: 'Bole branch' } } },
    success: { status: 201, message: 'Location created successfully', data: locationSchema, examples: { location: locationExample } },
    errors: ['validation_error', 'already_exists'],
  },
  listLocations: {
    method: 'get',
    path: '/locations',
    scope: 'read',
    tag: 'Locations',
    summary: 'List branches',
    description: 'Beyond SPEC.md. Every branch of your business, in the order they were named.',
    success: { status: 200, message: 'Locations retrieved successfully', data: z.array(locationSchema), examples: { locations: [locationExample] } },
    errors: [],
  },
});
