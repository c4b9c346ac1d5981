import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { locations } from '../db/schema';
import { pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';
import { newLocationSchema } from './location-request';

export interface Location {
  id: number;
  name: string;
}

const locationNotFound = () => new ServiceError('location_not_found', 'No location with this id belongs to your business.');

/** Names a branch of the business; the name is unique within it, whatever its case. Branches have no mode. */
export async function createLocation(db: DbOrTx, businessId: number, input: unknown): Promise<Location> {
  const { name } = parseInput(newLocationSchema, input);
  try {
    const [row] = await db.insert(locations).values({ businessId, name }).returning({ id: locations.id, name: locations.name });
    return row;
  } catch (err) {
    if (pgConstraint(err) === 'locations_business_name_idx') throw new ServiceError('already_exists', 'A location with this name already exists.');
    throw err;
  }
}

/** The business's branches in the order they were named. */
export async function listLocations(db: DbOrTx, businessId: number): Promise<Location[]> {
  return db.select({ id: locations.id, name: locations.name }).from(locations).where(eq(locations.businessId, businessId)).orderBy(asc(locations.id));
}

/** One of the business's branches; another business's or an unknown id is the same 404. */
export async function requireLocation(db: DbOrTx, businessId: number, id: number): Promise<Location> {
  const [row] = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(and(eq(locations.id, id), eq(locations.businessId, businessId)));
  if (!row) throw locationNotFound();
  return row;
}

/** The branch a ledger transaction happened at; written in the transaction that posted it. */
export async function recordTransactionLocation(db: DbOrTx, transactionId: number, locationId: number | null | undefined): Promise<void> {
  if (locationId == null) return;
  await db.execute(sql`UPDATE ledger_transactions SET location_id = ${locationId} WHERE id = ${transactionId}`);
}
