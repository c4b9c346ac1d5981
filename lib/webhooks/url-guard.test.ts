import { describe, expect, it } from 'vitest';
import { createTestBusiness, adminClient } from '../../tests/helpers';
import { deliverWebhook } from './deliver-webhook';
import { resolveWebhookTarget } from './url-guard';
import { startReceiver } from '../../tests/api/webhooks-receiver';

const FORBIDDEN = ['https://127.0.0.1/h', 'https://10.0.0.1/h', 'https://169.254.169.254/latest/meta-data', 'https://localhost/h', 'https://[::1]/h', 'https://192.168.1.10/h', 'https://[::ffff:127.0.0.1]/h'];

describe('live-mode SSRF guard', () => {
  it('refuses non-public targets at registration through the back office', async () => {
    const business = await createTestBusiness('SSRF');
    for (const url of [...FORBIDDEN, 'http://example.com/h']) {
      const res = await adminClient().put(`/api/admin/businesses/${business.id}/webhook`, { mode: 'live', url });
      expect(res.status, url).toBe(400);
      expect(res.body.error).toHaveProperty('url');
    }
  });

  it('refuses them again at delivery, before any byte is sent, even to a listening receiver', async () => {
    const receiver = await startReceiver();
    try {
      for (const url of [`https://127.0.0.1:${receiver.port}/h`, `https://localhost:${receiver.port}/h`, ...FORBIDDEN]) {
        await expect(resolveWebhookTarget(url, 'live')).rejects.toMatchObject({ status: 400 });
        const r = await deliverWebhook({ url, mode: 'live', guard: true, headers: {}, body: Buffer.from('{}'), timeoutMs: 2000 });
        expect(r.ok, url).toBe(false);
        expect(r.statusCode).toBeNull();
        expect(r.error).toMatch(/^refused/);
      }
      // Test mode may use loopback; the same code path then really sends.
      const ok = await deliverWebhook({ url: `${receiver.url}/t`, mode: 'test', guard: true, headers: {}, body: Buffer.from('{}') });
      expect(ok).toMatchObject({ ok: true, statusCode: 200 });
      const privateInTest = await deliverWebhook({ url: 'http://10.0.0.1/h', mode: 'test', guard: true, headers: {}, body: Buffer.from('{}') });
      expect(privateInTest.error).toMatch(/^refused/);
      expect(receiver.requests.map((r) => r.path)).toEqual(['/t']);
    } finally {
      await receiver.close();
    }
  });

  it('times out a receiver that never answers', async () => {
    const receiver = await startReceiver(() => new Promise(() => {}));
    try {
      const r = await deliverWebhook({ url: `${receiver.url}/slow`, mode: 'test', guard: true, headers: {}, body: Buffer.from('{}'), timeoutMs: 300 });
      expect(r).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 300 ms' });
      expect(r.durationMs).toBeGreaterThanOrEqual(290);
    } finally {
      await receiver.close();
    }
  });
});
