import { inject } from 'vitest';
import { describe, expect, it } from 'vitest';

describe('GET /api/health', () => {
  it('answers ok while the database answers', async () => {
    const res = await fetch(`${inject('baseUrl')}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
