import { expect } from 'vitest';
import { apiClient } from '../helpers';

/** Opens a live ETB shop for a business of a live stack (presets 500.00, orders of 100.00 to 5,000.00), through the back office. */
export async function openLiveShop(baseUrl: string, adminToken: string, businessId: number, slug: string): Promise<void> {
  const res = await apiClient(adminToken, baseUrl).put(`/api/admin/businesses/${businessId}/shop`, {
    enabled: true,
    mode: 'live',
    slug,
    currency: 'ETB',
    preset_amounts: [50_000],
    min_amount: 10_000,
    max_amount: 500_000,
    headline: null,
    color: null,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
