import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signInDashboard } from '../bench/bench-env';
import { parseLiabilityParams } from '../lib/reports/liability/definitions';
import { liabilityReport } from '../lib/reports/liability/query';
import { parseReconciliationParams } from '../lib/reports/reconciliation/definitions';
import { reconciliationReport } from '../lib/reports/reconciliation/report';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';
import { parseCsv } from './parse-csv';

/** Three hours ahead of UTC: a movement at 00:30 here is on the day before in UTC, so a period read in UTC takes the wrong rows. */
const ZONE = 'Africa/Addis_Ababa';

/**
 * Deposits at the edges of Ethiopian periods, as wall-clock times in the zone (+03:00). The Ethiopian days are
 * written here from the calendar itself, not from the app: 2015 is a leap year (Pagume has 6 days, Meskerem 1
 * 2016 is 12 Sep 2023); 2018 is not (Pagume has 5, Meskerem 1 2019 is 11 Sep 2026). Fiscal year N runs from
 * Hamle 1 of N-1 (8 July) to Sene 30 of N (7 July).
 */
const DEPOSITS = {
  sene30of2015: { at: '2023-07-07T23:30:00+03:00', amount: 1_01 },
  hamle1of2015: { at: '2023-07-08T00:30:00+03:00', amount: 2_02 },
  nehase30of2015: { at: '2023-09-05T23:30:00+03:00', amount: 4_04 },
  pagume1of2015: { at: '2023-09-06T00:30:00+03:00', amount: 8_08 },
  pagume6of2015: { at: '2023-09-11T23:30:00+03:00', amount: 16_16 },
  meskerem1of2016: { at: '2023-09-12T00:30:00+03:00', amount: 32_32 },
  sene30of2016: { at: '2024-07-07T23:30:00+03:00', amount: 64_64 },
  hamle1of2016: { at: '2024-07-08T00:30:00+03:00', amount: 128_28 },
  pagume5of2018: { at: '2026-09-10T23:59:00+03:00', amount: 256_56 },
  meskerem1of2019: { at: '2026-09-11T00:10:00+03:00', amount: 512_12 },
} as const;
type Name = keyof typeof DEPOSITS;
const sum = (names: Name[]) => names.reduce((s, n) => s + DEPOSITS[n].amount, 0);

/** Each Ethiopian period, the Gregorian days it is, and the deposits it must hold. */
const PERIODS: { name: string; eth: Record<string, string>; from: string; to: string; holds: Name[] }[] = [
  { name: 'Pagume 2015 (6 days)', eth: { eth_month: '2015-13' }, from: '2023-09-06', to: '2023-09-11', holds: ['pagume1of2015', 'pagume6of2015'] },
  { name: 'Meskerem 2016 (after a leap year)', eth: { eth_month: '2016-01' }, from: '2023-09-12', to: '2023-10-11', holds: ['meskerem1of2016'] },
  { name: 'Pagume 2018 (5 days)', eth: { eth_month: '2018-13' }, from: '2026-09-06', to: '2026-09-10', holds: ['pagume5of2018'] },
  { name: 'Meskerem 2019', eth: { eth_month: '2019-01' }, from: '2026-09-11', to: '2026-10-10', holds: ['meskerem1of2019'] },
  {
    name: 'fiscal year 2016, across Pagume and New Year',
    eth: { eth_year: '2016' },
    from: '2023-07-08',
    to: '2024-07-07',
    holds: ['hamle1of2015', 'nehase30of2015', 'pagume1of2015', 'pagume6of2015', 'meskerem1of2016', 'sene30of2016'],
  },
];

let biz: TestBusiness;
let cookie: string;
let cardNumber: string;

async function moveLastDeposit(at: string) {
  await testDb().execute(sql`
    WITH moved AS (
      UPDATE ledger_transactions SET created_at = ${at}::timestamptz
      WHERE id = (SELECT max(id) FROM ledger_transactions WHERE business_id = ${biz.id} AND kind = 'business_deposit' AND created_at > now() - interval '1 hour')
      RETURNING id, created_at)
    UPDATE ledger_entries e SET created_at = moved.created_at FROM moved WHERE e.transaction_id = moved.id`);
}

async function csv(path: string) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { cookie } });
  expect(res.status, path).toBe(200);
  return res.text();
}

beforeAll(async () => {
  biz = await createTestBusiness('Ethiopian periods');
  await testDb().execute(sql`UPDATE businesses SET time_zone = ${ZONE} WHERE id = ${biz.id}`);
  for (const { at, amount } of Object.values(DEPOSITS)) {
    const res = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount });
    expect(res.status).toBe(200);
    await moveLastDeposit(at);
  }
  // A card funded on Pagume 6 2015 late in the evening and again just after midnight on Meskerem 1 2016.
  cardNumber = (await createCard(biz.test)).card_number;
  for (const [amount, at] of [
    [700, DEPOSITS.pagume6of2015.at],
    [900, DEPOSITS.meskerem1of2016.at],
  ] as const) {
    await fundCard(cardNumber, amount);
    await testDb().execute(sql`UPDATE ledger_entries SET created_at = ${at}::timestamptz
      WHERE id = (SELECT max(id) FROM ledger_entries WHERE account_id = (SELECT account_id FROM cards WHERE card_number = ${cardNumber}))`);
  }
  const email = `finance-${biz.id}-${randomUUID()}@example.com`;
  expect((await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'a-long-password', role: 'finance' })).status).toBe(201);
  cookie = await signInDashboard(inject('baseUrl'), email, 'a-long-password');
}, 120_000);

describe('reports read by Ethiopian month and fiscal year', () => {
  const opts = () => ({ businessId: biz.id, mode: 'test' as const, timeZone: ZONE });

  it.each(PERIODS)('the reconciliation of $name is the reconciliation of its Gregorian days, and holds its own deposits only', async (p) => {
    const eth = parseReconciliationParams(p.eth, ZONE);
    expect(eth.errors).toEqual({});
    expect(eth.value).toMatchObject({ from: p.from, to: p.to });
    const [byEthiopian, byGregorian] = await Promise.all([
      reconciliationReport(testDb(), { ...opts(), ...eth.value }),
      reconciliationReport(testDb(), { ...opts(), ...parseReconciliationParams({ from: p.from, to: p.to }, ZONE).value }),
    ]);
    expect(byEthiopian).toEqual(byGregorian);
    expect(byEthiopian.days.every((d) => d.reconciles)).toBe(true);
    expect(byEthiopian.days.reduce((s, d) => s + d.figures.deposits, 0)).toBe(sum(p.holds));
  });

  it('the fiscal year running now, across Pagume 2018 and New Year 2019, is cut at today', async () => {
    const { value, errors, today } = parseReconciliationParams({ eth_year: '2019' }, ZONE);
    expect(errors).toEqual({});
    expect(value).toMatchObject({ from: '2026-07-08', to: today });
    const report = await reconciliationReport(testDb(), { ...opts(), ...value });
    expect(report.days.reduce((s, d) => s + d.figures.deposits, 0)).toBe(sum(['pagume5of2018', 'meskerem1of2019']));
  });

  it('over HTTP, the CSV export of an Ethiopian period is the export of its Gregorian days, with ISO days and English columns', async () => {
    for (const p of PERIODS) {
      const eth = await csv(`/reports/reconciliation/export?${new URLSearchParams(p.eth)}`);
      const greg = await csv(`/reports/reconciliation/export?from=${p.from}&to=${p.to}`);
      expect(eth, p.name).toBe(greg);
      const days = parseCsv(eth).filter((r) => r.line === 'day');
      expect(
        days.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[`day (${ZONE})`])),
        p.name,
      ).toBe(true);
      expect(
        days.reduce((s, r) => s + Number(r.deposits_minor), 0),
        p.name,
      ).toBe(sum(p.holds));
    }
  });

  it('the liability of an Ethiopian month is as of its last day: Pagume 2015 holds the card’s evening funding, not the one after midnight', async () => {
    const { value, errors } = parseLiabilityParams({ eth_month: '2015-13' }, ZONE);
    expect(errors).toEqual({});
    expect(value.day).toBe('2023-09-11');
    const base = { ...opts(), dormantDays: value.dormantDays };
    const [byEthiopian, byGregorian, meskerem] = await Promise.all([
      liabilityReport(testDb(), { ...base, day: value.day }),
      liabilityReport(testDb(), { ...base, day: '2023-09-11' }),
      liabilityReport(testDb(), { ...base, day: parseLiabilityParams({ eth_month: '2016-01' }, ZONE).value.day }),
    ]);
    expect(byEthiopian).toEqual(byGregorian);
    const etb = (r: typeof byEthiopian) => r.currencies.find((c) => c.currency === 'ETB')?.balance ?? 0;
    expect(etb(byEthiopian)).toBe(700);
    expect(etb(meskerem)).toBe(1_600);
    const aged = await csv('/reports/liability/export/aged?eth_month=2015-13');
    expect(aged).toBe(await csv('/reports/liability/export/aged?day=2023-09-11'));
  });
});
