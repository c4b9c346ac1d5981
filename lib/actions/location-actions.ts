import { setUserLocation } from '../auth/user-location';
import { createLocation } from '../locations/locations';
import { defineAction } from './define-action';
import { newLocationSchema, setUserLocationSchema } from './location.validation';

/** The owner names a branch (Settings); the API's POST /locations does the same. */
export const createLocationAction = defineAction({
  name: 'locations.create',
  permission: 'team',
  schema: newLocationSchema,
  handler: ({ db, session, input }) => createLocation(db, session.businessId, input),
});

/** The owner ties a teammate to a branch, or unties them (Team). */
export const setUserLocationAction = defineAction({
  name: 'team.setUserLocation',
  permission: 'team',
  schema: setUserLocationSchema,
  handler: ({ db, session, input }) =>
    setUserLocation(db, { businessId: session.businessId, userId: input.user_id, locationId: input.location_id, actor: session.actor }),
});
