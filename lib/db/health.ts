import { sql } from 'drizzle-orm';
import { getDb } from './client';

export async function checkHealth(): Promise<boolean> {
  try {
    await Promise.race([getDb().execute(sql`SELECT 1`), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
    return true;
  } catch {
    return false;
  }
}
