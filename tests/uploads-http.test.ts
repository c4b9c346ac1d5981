import { inject, beforeAll, describe, expect, it } from 'vitest';
import { createTestBusiness, randomPhone, type TestBusiness } from './helpers';
import { getWithSession, PASSWORD, signInOverHttp, userOf } from './owners-auth-helpers';

/** The upload route, the job route and the results file over real HTTP with real sessions. */
let biz: TestBusiness;
let operator: string;
let outsider: string;

async function cookieOf(businessId: number, role: 'operator' | 'finance' | 'owner') {
  const user = await userOf(businessId, role);
  const { cookie } = await signInOverHttp(user.email, PASSWORD);
  return cookie!;
}

const upload = (kind: string, cookie: string, body: BodyInit, contentType = 'text/csv') =>
  fetch(`${inject('baseUrl')}/api/dashboard/uploads/${kind}`, {
    method: 'POST',
    headers: { cookie, 'content-type': contentType, 'x-file-name': encodeURIComponent('my cards.csv') },
    body,
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

beforeAll(async () => {
  biz = await createTestBusiness();
  operator = await cookieOf(biz.id, 'operator');
  outsider = await cookieOf((await createTestBusiness()).id, 'owner');
});

describe('dashboard upload routes', () => {
  it('preview a file, show it only to its business, and stream a results file with formulas defused', async () => {
    const res = await upload('cards', operator, `phone_number,currency,first_name\n${randomPhone()},ETB,Abebe\n${randomPhone()},ETB,"@SUM(A1)"\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const reference = res.body.data.reference as string;
    const job = await getWithSession(`/api/dashboard/uploads/cards/${reference}`, operator);
    expect(job.status).toBe(200);
    expect(JSON.parse(job.text).data).toMatchObject({ fileName: 'my cards.csv', status: 'previewed', rowCount: 2, invalidCount: 1 });
    expect((await getWithSession(`/api/dashboard/uploads/cards/${reference}`, outsider)).status).toBe(404);
    expect((await getWithSession(`/cards/upload/${reference}`, outsider)).status).toBe(404);
    const results = await getWithSession(`/cards/upload/${reference}/results`, operator);
    expect(results.status).toBe(200);
    expect(results.text.split('\r\n')[2]).toMatch(/^3,invalid,,validation_error,.*,'@SUM\(A1\),/);
    expect((await getWithSession(`/cards/upload/${reference}/results`, outsider)).status).toBe(404);
    // A reference that names nothing (a NUL PostgreSQL would refuse, an over-long one) is a 404, never a 500.
    for (const bad of [`${reference}%00`, `upl_${'x'.repeat(300)}`]) {
      expect((await getWithSession(`/api/dashboard/uploads/cards/${bad}`, operator)).status).toBe(404);
      expect((await getWithSession(`/cards/upload/${bad}/results`, operator)).status).toBe(404);
    }
  });

  it('refuse in the envelope: too large (413), not UTF-8, not text/csv, a kind the role may not upload, an unknown kind', async () => {
    const big = await upload('cards', operator, `phone_number,currency\n${'+251911234567,ETB\n'.repeat(250_000)}`);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ status: 'error', message: 'Payload too large' });
    const latin1 = await upload('cards', operator, new Uint8Array([...Buffer.from('phone_number,currency,first_name\n+251911234567,ETB,'), 0xe9, 0x0a]));
    expect(latin1).toMatchObject({ status: 400, body: { message: 'Validation error', error: { file: expect.stringMatching(/not UTF-8/) } } });
    expect((await upload('cards', operator, 'phone_number,currency\n', 'text/plain')).status).toBe(400);
    expect((await upload('payouts', operator, 'card_number,amount\n1,1\n')).status).toBe(403);
    expect((await upload('gadgets', operator, 'a\n1\n')).status).toBe(404);
    const empty = await upload('cards', operator, '\uFEFF\r\n');
    expect(empty).toMatchObject({ status: 400, body: { error: { file: expect.stringMatching(/empty/) } } });
  });
});
