import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from './db/client';
import { createBusiness } from './admin/businesses';

/** On an empty database: a demo business, its owner's sign-in and both API keys, printed once. */
export async function seedIfEmpty(db: Db, log: (line: string) => void = console.log): Promise<boolean> {
  // Two instances starting together on an empty database: only the first seeds.
  const claimed = await db.execute<{ first: boolean }>(sql`
    INSERT INTO audit_log (actor_type, actor_id, action) SELECT 'system', 'seed', 'demo.seeded'
    WHERE NOT EXISTS (SELECT 1 FROM businesses) AND pg_try_advisory_xact_lock(727002)
      AND NOT EXISTS (SELECT 1 FROM audit_log WHERE action = 'demo.seeded')
    RETURNING true AS first`);
  if (claimed.rows.length === 0) return false;
  const password = randomBytes(9).toString('base64url');
  const business = await createBusiness(db, { name: 'Demo Coffee', owner_email: 'owner@demo.test', owner_password: password });
  log('');
  log('  Seeded a demo business (shown only this once):');
  log(`    merchant_id   ${business.merchant_id}`);
  log(`    sign in       owner@demo.test / ${password}`);
  log(`    test API key  ${business.api_keys.test}`);
  log(`    live API key  ${business.api_keys.live}`);
  log('');
  return true;
}
