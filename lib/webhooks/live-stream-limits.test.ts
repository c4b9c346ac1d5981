import { describe, expect, it } from 'vitest';
import { liveSessionKey } from './live-stream-limits';

describe("a live stream's session key", () => {
  const one = 'next-auth.session-token=abc';
  it('is the same however often the session cookie is repeated, or whatever other cookies come with it', () => {
    const key = liveSessionKey(one, 7);
    expect(liveSessionKey(`${one}; ${one}`, 7)).toBe(key);
    expect(liveSessionKey(`${one}; next-auth.session-token=xyz; theme=dark`, 7)).toBe(key);
  });
  it('differs for another session or another user', () => {
    expect(liveSessionKey('next-auth.session-token=xyz', 7)).not.toBe(liveSessionKey(one, 7));
    expect(liveSessionKey(one, 8)).not.toBe(liveSessionKey(one, 7));
  });
});
