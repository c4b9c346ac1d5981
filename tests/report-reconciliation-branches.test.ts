import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../lib/errors';
import { BRANCH_FIGURES, FIGURES, type ReconciliationReport } from '../lib/reports/reconciliation/definitions';
import { reconciliationCsvFile } from '../lib/reports/reconciliation/export';
import { reconciliationReport } from '../lib/reports/reconciliation/report';
import { dayIn } from '../lib/time-zone';
import type { Mode } from '../lib/validation';
import { adminClient, createCard, createTestBusiness, type TestBusiness, testDb } from './helpers';
import { fundCard } from './ledger-helpers';
import { getWithSession, PASSWORD, signInOverHttp } from './owners-auth-helpers';
import { parseCsv } from './parse-csv';

const TZ = 'Africa/Addis_Ababa';
const today = () => dayIn(TZ, new Date());

async function branch(biz: TestBusiness, name: string): Promise<number> {
  const res = await biz.test.post('/api/v1/locations', { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

const report = (biz: TestBusiness, mode: Mode, location?: number | 'none') =>
  reconciliationReport(testDb(), { businessId: biz.id, mode, timeZone: TZ, from: today(), to: today(), location });

const etb = (r: ReconciliationReport) => r.totals.find((t) => t.currency === 'ETB');

/** The ledger's own view of the day's spends, per branch (null: none named): gross off the cards, the fee, net to the business, and how many. */
async function ledgerSpends(businessId: number, mode: Mode) {
  const { rows } = await testDb().execute<{ location_id: number | null; gross: string; fee: string; net: string; n: number }>(sql`
    SELECT t.location_id,
      -coalesce(sum(e.amount) FILTER (WHERE a.kind = 'card'), 0) AS gross,
      coalesce(sum(e.amount) FILTER (WHERE a.kind = 'fee_revenue'), 0) AS fee,
      coalesce(sum(e.amount) FILTER (WHERE a.kind = 'business'), 0) AS net,
      count(DISTINCT t.id)::int AS n
    FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
    WHERE t.kind = 'card_redemption' AND t.business_id = ${businessId} AND t.mode = ${mode} GROUP BY 1`);
  return new Map(rows.map((r) => [r.location_id, { gross: Number(r.gross), fee: Number(r.fee), net: Number(r.net), n: r.n }]));
}

describe('the reconciliation per branch', () => {
  let biz: TestBusiness;
  let other: TestBusiness;
  let bole: number;
  let piassa: number;
  let foreign: number;

  beforeAll(async () => {
    biz = await createTestBusiness('Reconciled branches');
    other = await createTestBusiness('Other branches');
    [bole, piassa, foreign] = [await branch(biz, 'Bole'), await branch(biz, 'Piassa'), await branch(other, 'Bole')];
    for (const mode of ['test', 'live'] as const) {
      const fees = await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode, rules: [{ applies_to: 'redemption', percent: '2', fixed: 10 }] });
      expect(fees.status).toBe(200);
    }
    const key = { test: biz.test, live: biz.live };
    const spend = async (mode: Mode, card: string, amount: number, location?: number) => {
      const res = await key[mode].post(`/api/v1/card/${card}/redemptions`, { amount, ...(location && { location_id: location }) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    for (const mode of ['test', 'live'] as const) {
      const card = (await createCard(key[mode])).card_number as string;
      await fundCard(card, 500_000);
      // Bole: a redemption, a hold captured in part, and a hold voided (its money never spent); Piassa: one; none named: one.
      await spend(mode, card, mode === 'test' ? 10_000 : 20_000, bole);
      const hold = await key[mode].post(`/api/v1/card/${card}/holds`, { amount: 5_000, location_id: bole });
      expect(hold.status, JSON.stringify(hold.body)).toBe(201);
      const captured = await key[mode].post(`/api/v1/card/holds/${hold.body.data.hold_reference}/capture`, { amount: 3_000 });
      expect(captured.body.data, JSON.stringify(captured.body)).toMatchObject({ status: 'captured', location_id: bole });
      const voided = await key[mode].post(`/api/v1/card/${card}/holds`, { amount: 700, location_id: bole });
      expect((await key[mode].post(`/api/v1/card/holds/${voided.body.data.hold_reference}/void`, {})).body.data.status).toBe('voided');
      await spend(mode, card, 1_500, piassa);
      await spend(mode, card, 400);
    }
    // The other business spends at its own branch the same day: never in this one's figures.
    const theirs = (await createCard(other.test)).card_number as string;
    await fundCard(theirs, 10_000);
    expect((await other.test.post(`/api/v1/card/${theirs}/redemptions`, { amount: 900, location_id: foreign })).status).toBe(200);
  });

  it('counts only the spends at the branch, each tied out with the ledger; the branches and "no branch" add up to the whole, in both modes', async () => {
    for (const mode of ['test', 'live'] as const) {
      const ledger = await ledgerSpends(biz.id, mode);
      const whole = etb(await report(biz, mode))!;
      const parts = { bole, piassa, none: 'none' as const };
      const sum = { gross: 0, fee: 0, net: 0, n: 0 };
      for (const [name, location] of Object.entries(parts)) {
        const r = await report(biz, mode, location);
        const total = etb(r)!;
        const want = ledger.get(location === 'none' ? null : location)!;
        expect(total, `${mode} ${name}`).toMatchObject({ transactions: want.n, reconciles: true });
        expect(total.figures.redemptionsOut, `${mode} ${name}`).toBe(want.gross);
        expect(total.figures.feesOnRedemptions).toBe(want.fee);
        expect(total.figures.redemptionsIn).toBe(want.net);
        expect(want.gross - want.fee).toBe(want.net);
        // Nothing but spends: every other line of the business is not at a branch, and no check against other tables runs.
        for (const f of FIGURES) {
          if (!BRANCH_FIGURES.includes(f.key) && !['netChange', 'debits', 'credits'].includes(f.key))
            expect(total.figures[f.key], `${mode} ${name} ${f.key}`).toBe(0);
        }
        expect(total.figures.netChange).toBe(-want.fee);
        expect(r.days.flatMap((d) => d.checks)).toEqual([]);
        sum.gross += total.figures.redemptionsOut;
        sum.fee += total.figures.feesOnRedemptions;
        sum.net += total.figures.redemptionsIn;
        sum.n += total.transactions;
      }
      expect(sum).toEqual({ gross: whole.figures.redemptionsOut, fee: whole.figures.feesOnRedemptions, net: whole.figures.redemptionsIn, n: sum.n });
      expect(ledger.get(bole)).toMatchObject({ n: 2, gross: (mode === 'test' ? 10_000 : 20_000) + 3_000 });
      expect(sum.n).toBe([...ledger.values()].reduce((s, l) => s + l.n, 0));
    }
  });

  it('refuses another business’s branch (and an unknown one) as not found, and shows nothing of it', async () => {
    for (const location of [foreign, 2_000_000_000]) {
      const refused = await report(biz, 'test', location).then(
        () => 'shown',
        (err) => (err instanceof ServiceError ? err.code : String(err)),
      );
      expect(refused).toBe('location_not_found');
    }
    // The other business reads its own branch: its spend alone.
    expect(etb(await report(other, 'test', foreign))).toMatchObject({ transactions: 1, figures: { redemptionsOut: 900 } });
    expect(await report(other, 'test', bole).catch((err: ServiceError) => err.code)).toBe('location_not_found');
  });

  it('is read per branch on the page and in the CSV, in both modes; another business’s branch is a 404 and an error on the page', async () => {
    const email = `owner-${randomUUID()}@example.com`;
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
    const { cookie } = await signInOverHttp(email, PASSWORD);
    const day = today();
    for (const mode of ['test', 'live'] as const) {
      const jar = mode === 'live' ? `${cookie}; gc_mode=live` : cookie!;
      const csv = await getWithSession(`/reports/reconciliation/export?from=${day}&to=${day}&location=${bole}`, jar);
      expect(csv.status).toBe(200);
      const total = parseCsv(csv.text).find((r) => r.line === 'total' && r.currency === 'ETB')!;
      const cell = (name: string) => total[name];
      const want = (await ledgerSpends(biz.id, mode)).get(bole)!;
      expect([cell('transactions'), cell('cards_redeemed_minor'), cell('fees_on_redemptions_minor'), cell('redemptions_received_minor')]).toEqual(
        [want.n, want.gross, want.fee, want.net].map(String),
      );
      expect(cell('branch')).toBe('Bole');
      const page = await getWithSession(`/reports/reconciliation?from=${day}&to=${day}&location=${bole}`, jar);
      expect(page.status).toBe(200);
      expect(page.text).toContain('recon-branch-note');
    }
    const refused = await getWithSession(`/reports/reconciliation/export?from=${day}&to=${day}&location=${foreign}`, cookie!);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text)).toMatchObject({ status: 'error', message: 'Location not found' });
    const page = await getWithSession(`/reports/reconciliation?from=${day}&to=${day}&location=${foreign}`, cookie!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('recon-errors');
    expect(page.text).not.toContain('recon-table-ETB');
    // Whatever a direct file says, the CSV export of the whole business is unchanged: no branch column.
    const whole = await reconciliationCsvFile(testDb(), { businessId: biz.id, mode: 'test', timeZone: TZ, from: day, to: day, provider: undefined });
    expect(whole.header).not.toContain('branch');
  });
});
