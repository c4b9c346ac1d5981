import { describe, expect, it } from 'vitest';
import { LastUsedThrottle } from './key-last-used';

describe('LastUsedThrottle', () => {
  it('lets a key be written once per interval, each key on its own clock', () => {
    const t = new LastUsedThrottle(60_000);
    expect(t.due(1, 0)).toBe(true);
    expect(t.due(1, 59_999)).toBe(false);
    expect(t.due(2, 59_999)).toBe(true);
    expect(t.due(1, 60_000)).toBe(true);
    expect(t.due(1, 60_001)).toBe(false);
  });

  it('forgets the oldest key rather than grow past its bound', () => {
    const t = new LastUsedThrottle(60_000, 2);
    expect(t.due(1, 0)).toBe(true);
    expect(t.due(2, 0)).toBe(true);
    expect(t.due(3, 0)).toBe(true); // key 1 is forgotten
    expect(t.due(2, 1)).toBe(false);
    expect(t.due(1, 1)).toBe(true);
  });
});
