import { describe, expect, it } from 'vitest';
import { createTestBusiness, adminClient } from '../../tests/helpers';
import { deliverWebhook } from './deliver-webhook';
import { isNonPublicAddress, resolveWebhookTarget } from './url-guard';
import { startReceiver } from '../../tests/api/webhooks-receiver';

const FORBIDDEN = [
  'https://127.0.0.1/h',
  'https://10.0.0.1/h',
  'https://169.254.169.254/latest/meta-data',
  'https://localhost/h',
  'https://[::1]/h',
  'https://192.168.1.10/h',
  'https://[::ffff:127.0.0.1]/h',
];

// Each form a live webhook must not reach, as a URL host: the reason beside it.
const NON_PUBLIC_HOSTS: [string, string][] = [
  ['192.0.2.10', 'documentation TEST-NET-1'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast'],
  ['100.64.0.1', 'shared address space (CGNAT)'],
  ['198.18.0.1', 'benchmarking'],
  ['0.0.0.0', 'this network'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['[::ffff:0:7f00:1]', 'IPv4-translated loopback'],
  ['[::ffff:0:808:808]', 'IPv4-translated, even of a public address'],
  ['[::ffff:a9fe:a9fe]', 'IPv4-mapped link-local (cloud metadata)'],
  ['[::ffff:c000:20a]', 'IPv4-mapped documentation'],
  ['[::7f00:1]', 'IPv4-compatible loopback'],
  ['[::808:808]', 'IPv4-compatible, even of a public address'],
  ['[64:ff9b::7f00:1]', 'NAT64 of loopback'],
  ['[64:ff9b::a00:1]', 'NAT64 of a private address'],
  ['[64:ff9b::c633:6401]', 'NAT64 of documentation'],
  ['[64:ff9b:1::a00:1]', 'local-use NAT64'],
  ['[64:ff9b:1:808:8:800::]', 'local-use NAT64, even of a public address'],
  ['[2002:7f00:1::1]', '6to4 of loopback'],
  ['[2002:808:808::1]', '6to4, even of a public address'],
  ['[2001::7f00:1]', 'Teredo'],
  ['[2001:0:4136:e378:8000:63bf:3fff:fdd2]', 'Teredo with a public server and client'],
  ['[2a00:1450::5efe:a00:1]', 'ISATAP interface id'],
  ['[2a00:1450::200:5efe:808:808]', 'ISATAP interface id, globally unique form'],
  ['[2001:db8::1]', 'documentation'],
  ['[3fff::1]', 'documentation 3fff::/20'],
  ['[2001:2::1]', 'benchmarking'],
  ['[2001:10::1]', 'ORCHID'],
  ['[2001:20::1]', 'ORCHIDv2'],
  ['[fc00::1]', 'unique local'],
  ['[fd12:3456::1]', 'unique local'],
  ['[fe80::1]', 'link-local'],
  ['[fec0::1]', 'site-local'],
  ['[ff02::1]', 'multicast'],
  ['[::]', 'unspecified'],
  ['[::1]', 'loopback'],
  ['[100::1]', 'discard-only'],
  ['[5f00::1]', 'outside global unicast 2000::/3'],
];

const PUBLIC_ADDRESSES = [
  '8.8.8.8',
  '1.1.1.1',
  '192.0.1.1',
  '198.51.99.1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81c::200e',
  '3fff:1000::1',
];

describe('non-public addresses', () => {
  it.each(NON_PUBLIC_HOSTS)('refuses %s in live mode (%s)', async (host) => {
    expect(isNonPublicAddress(host)).toBe(true);
    await expect(resolveWebhookTarget(`https://${host}/h`, 'live')).rejects.toMatchObject({
      status: 400,
      detail: { url: 'url must resolve to a public address.' },
    });
  });

  it('takes the same forms spelt out, as DNS answers them', () => {
    for (const ip of [
      '::ffff:0:127.0.0.1',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      '64:FF9B::7F00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '2001:db8::5efe:10.0.0.1',
      'fe80::1%eth0',
      'not an address',
    ]) {
      expect(isNonPublicAddress(ip), ip).toBe(true);
    }
  });

  it('lets public addresses through, including mapped and NAT64 forms of public IPv4', async () => {
    for (const ip of PUBLIC_ADDRESSES) expect(isNonPublicAddress(ip), ip).toBe(false);
    await expect(resolveWebhookTarget('https://[::ffff:8.8.8.8]/h', 'live')).resolves.toMatchObject({ address: '::ffff:808:808', family: 6, public: true });
  });

  it('marks the loopback names test mode allows as not public', async () => {
    for (const url of ['http://localhost:1/h', 'http://127.0.0.1:1/h', 'http://[::1]:1/h']) {
      expect(await resolveWebhookTarget(url, 'test'), url).toMatchObject({ public: false });
    }
  });
});

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
