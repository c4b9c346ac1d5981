import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminClient, apiClient, createTestBusiness } from '../helpers';

describe('GET /api/admin/businesses', () => {
  it('finds a business by any part of its name or by its merchant id, with its id, paged newest first', async () => {
    const tag = randomUUID().slice(0, 8);
    const first = await createTestBusiness(`Abyssinia Coffee ${tag}`);
    const second = await createTestBusiness(`abyssinia tea ${tag}`);
    await createTestBusiness(`Other ${tag}_x`);

    const byName = await adminClient().get(`/api/admin/businesses?search=${encodeURIComponent(`ABYSSINIA`)}&limit=100`);
    expect(byName.status).toBe(200);
    const mine = byName.body.data.items.filter((b: { name: string }) => b.name.endsWith(tag));
    expect(mine.map((b: { id: number }) => b.id)).toEqual([second.id, first.id]);
    expect(mine[1]).toMatchObject({ id: first.id, merchant_id: first.merchant_id, name: first.name, time_zone: 'Africa/Addis_Ababa', country: 'ET' });

    const byMerchant = await adminClient().get(`/api/admin/businesses?search=${first.merchant_id}`);
    expect(byMerchant.body.data.items.map((b: { id: number }) => b.id)).toEqual([first.id]);
    expect(byMerchant.body.data).toMatchObject({ total: 1, page: 1, pages: 1 });

    // LIKE's own characters are taken literally: "_" matches only an underscore.
    const literal = await adminClient().get(`/api/admin/businesses?search=${tag}_x`);
    expect(literal.body.data.total).toBe(1);

    const paged = await adminClient().get(`/api/admin/businesses?search=${tag}&limit=1&page=2`);
    expect(paged.body.data).toMatchObject({ total: 3, page: 2, limit: 1, pages: 3 });
    expect(paged.body.data.items.map((b: { id: number }) => b.id)).toEqual([second.id]);
  });

  it('answers bad paging or search in the envelope, and only to the back office token', async () => {
    const bad = await adminClient().get('/api/admin/businesses?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toHaveProperty('limit');
    const long = await adminClient().get(`/api/admin/businesses?search=${'x'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.error).toHaveProperty('search');
    const biz = await createTestBusiness('Key holder');
    expect((await apiClient(biz.keys.test).get('/api/admin/businesses')).status).toBe(401);
    expect((await apiClient().get('/api/admin/businesses')).status).toBe(401);
  });
});
