'use server';

import * as defs from '@/lib/actions/location-actions';
import { runAction } from '@/server/run-action';

export async function createLocation(input: unknown) {
  return runAction(defs.createLocationAction, input);
}

export async function setUserLocation(input: unknown) {
  return runAction(defs.setUserLocationAction, input);
}
