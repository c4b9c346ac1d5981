import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { updateBusinessSettings } from '../lib/actions/business-actions';
import { runActionAs } from '../lib/actions/define-action';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { getBusinessSettings } from '../lib/business/business-settings';
import { searchPayouts } from '../lib/dashboard/search-payouts';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

const session = (biz: TestBusiness, role: Role): DashboardSession => ({
  userId: 800_000 + biz.id,
  email: `${role}@example.com`,
  businessId: biz.id,
  role,
  mode: 'test',
  timeZone: 'Africa/Addis_Ababa',
  country: 'ET',
  actor: { type: 'user', id: String(800_000 + biz.id) },
});

let biz: TestBusiness;
let reference: string;

beforeAll(async () => {
  biz = await createTestBusiness('Time zone');
  const card = await createCard(biz.test);
  expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000 })).status).toBe(200);
  const transfer = await biz.test.post('/api/v1/transfers', { amount: 1_000, bank_slug: 'link', account_number: card.card_number, account_name: 'Float' });
  expect(transfer.status).toBe(200);
  reference = transfer.body.data.provider_reference;
  // 21:30 UTC on the 24th is 00:30 on the 25th in Addis Ababa.
  await testDb().execute(sql`UPDATE payouts SET created_at = '2026-11-24T21:30:00Z' WHERE business_id = ${biz.id} AND reference = ${reference}`);
});

const onDay = async (day: string, timeZone: string) =>
  (await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone, filters: { from: day, to: day }, limit: 10 })).rows.map((r) => r.reference);

describe('a business time zone', () => {
  it('starts as Africa/Addis_Ababa and Ethiopia', async () => {
    expect(await getBusinessSettings(testDb(), biz.id)).toEqual({ timeZone: 'Africa/Addis_Ababa', country: 'ET' });
  });

  it('decides which calendar day a payout falls on in the history filters', async () => {
    expect(await onDay('2026-11-25', 'Africa/Addis_Ababa')).toEqual([reference]);
    expect(await onDay('2026-11-24', 'Africa/Addis_Ababa')).toEqual([]);
    expect(await onDay('2026-11-24', 'UTC')).toEqual([reference]);
    expect(await onDay('2026-11-24', 'America/New_York')).toEqual([reference]);
  });

  it('is changed by an owner only, refuses unknown zones and countries, and is audited with old and new values', async () => {
    const refused = await runActionAs(updateBusinessSettings, session(biz, 'operator'), { time_zone: 'UTC', country: 'ET' });
    expect(refused).toMatchObject({ ok: false });
    const badZone = await runActionAs(updateBusinessSettings, session(biz, 'owner'), { time_zone: 'Mars/Olympus', country: 'ET' });
    expect(badZone).toMatchObject({ ok: false, fieldErrors: { time_zone: 'Choose a time zone from the list.' } });
    const badCountry = await runActionAs(updateBusinessSettings, session(biz, 'owner'), { time_zone: 'UTC', country: 'XX' });
    expect(badCountry).toMatchObject({ ok: false, fieldErrors: { country: 'Choose a country from the list.' } });
    expect(await getBusinessSettings(testDb(), biz.id)).toEqual({ timeZone: 'Africa/Addis_Ababa', country: 'ET' });

    const saved = await runActionAs(updateBusinessSettings, session(biz, 'owner'), { time_zone: 'Africa/Nairobi', country: 'KE' });
    expect(saved).toEqual({ ok: true, data: { timeZone: 'Africa/Nairobi', country: 'KE' } });
    expect(await getBusinessSettings(testDb(), biz.id)).toEqual({ timeZone: 'Africa/Nairobi', country: 'KE' });
    const audit = await testDb().execute<{ action: string; details: unknown }>(
      sql`SELECT action, details FROM audit_log WHERE business_id = ${biz.id} AND action = 'business.settings_changed'`,
    );
    expect(audit.rows).toEqual([
      {
        action: 'business.settings_changed',
        details: { from: { time_zone: 'Africa/Addis_Ababa', country: 'ET' }, to: { time_zone: 'Africa/Nairobi', country: 'KE' } },
      },
    ]);
  });
});
