import { describe, expect, it } from 'vitest';
import { adminClient, apiClient, createCard, createTestBusiness } from '../helpers';
import { businessBalance } from '../ledger-helpers';

describe('back office', () => {
  it('creates a business with both keys and an owner account', async () => {
    const res = await adminClient().post('/api/admin/businesses', {
      name: 'Owned',
      owner_email: `owner-${Date.now()}@example.com`,
      owner_password: 'correct horse battery',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.data).slice(0, 4)).toEqual(['id', 'merchant_id', 'name', 'api_keys']);
    expect(res.body.data.merchant_id).toMatch(/^mer_/);
    expect(res.body.data.owner.email).toMatch(/^owner-/);
    const card = await createCard(apiClient(res.body.data.api_keys.live));
    expect((await apiClient(res.body.data.api_keys.live).get(`/api/v1/card/${card.card_number}`)).body.data.business_id).toBe(res.body.data.id);
  });

  it('validates its input in the same envelope', async () => {
    const res = await adminClient().post('/api/admin/businesses', { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.error).toHaveProperty('name');
    const user = await adminClient().post('/api/admin/businesses/999999999/users', { email: 'a@b.co', password: 'longenough1', role: 'owner' });
    expect(user.status).toBe(404);
    const biz = await createTestBusiness();
    const badRole = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email: `x${Date.now()}@b.co`, password: 'longenough1', role: 'god' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toHaveProperty('role');
  });

  it('creates dashboard users of every role, emails unique', async () => {
    const biz = await createTestBusiness();
    for (const role of ['owner', 'operator', 'finance', 'support']) {
      const email = `${role}-${biz.id}-${Date.now()}@example.com`;
      const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'password-123', role });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ email, role, business_id: biz.id });
      const dup = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'password-123', role });
      expect(dup.status).toBe(400);
    }
  });

  it('replaces a fee schedule and refuses bad rules', async () => {
    const biz = await createTestBusiness();
    const ok = await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, {
      mode: 'test',
      rules: [
        { applies_to: 'card_to_card', percent: 1.5, fixed: 10, min: 20, max: 500 },
        { applies_to: 'bank', percent: '2', fixed: 0 },
      ],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.rules[0]).toEqual({ applies_to: 'card_to_card', percent: '1.5', fixed: 10, min: 20, max: 500 });
    for (const rules of [
      [{ applies_to: 'bank', percent: 101 }],
      [{ applies_to: 'bank', percent: -1 }],
      [{ applies_to: 'bank', fixed: 1.5 }],
      [{ applies_to: 'atm' }],
      [{ applies_to: 'bank', min: 10, max: 5 }],
    ]) {
      const res = await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Validation error');
    }
  });

  it('applies concurrent replacements of one schedule one after another, never a 5xx', async () => {
    const biz = await createTestBusiness();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: 1, fixed: i }] }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const fixedValues = answers.map((a) => a.body.data.rules[0].fixed);
    expect(new Set(fixedValues).size).toBe(24);
  });

  it('credits the business account of a mode and currency', async () => {
    const biz = await createTestBusiness();
    const res = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'live', currency: 'USD', amount: 50_000 });
    expect(res.status).toBe(200);
    expect(res.body.data.balance).toBe(50_000);
    expect(await businessBalance(biz.id, 'live', 'USD')).toBe(50_000);
    expect(await businessBalance(biz.id, 'test', 'USD')).toBe(0);
    for (const amount of [0, -5, 1.5, '100', 10 ** 13]) {
      expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'live', currency: 'USD', amount })).status).toBe(400);
    }
    expect(await businessBalance(biz.id, 'live', 'USD')).toBe(50_000);
  });

  it('registers a webhook URL: test mode takes loopback http, live needs public https', async () => {
    const biz = await createTestBusiness();
    const ok = await adminClient().put(`/api/admin/businesses/${biz.id}/webhook`, { mode: 'test', url: 'http://127.0.0.1:9/hook' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ mode: 'test', url: 'http://127.0.0.1:9/hook' });
    expect(ok.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest',
      'https://localhost/hook',
    ]) {
      const res = await adminClient().put(`/api/admin/businesses/${biz.id}/webhook`, { mode: 'live', url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
    }
  });
});
