import { createDb } from '../lib/db/client';
import { expireHolds } from '../lib/holds/expire-holds';

/**
 * Runs the hold expiry sweep once, to the end, against DATABASE_URL: for an
 * operator who stopped the app's background work, and for the crash test that
 * kills it midway (tests/holds-expiry-crash.test.ts).
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const { db, pool } = createDb(url, 2);
let passes = 0;
while (await expireHolds(db, 10)) passes++;
console.log(`hold expiry sweep done after ${passes + 1} passes`);
await pool.end();
