import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map';

describe('RecentMap', () => {
  it('forgets the oldest entry not read since it was last passed over, and keeps read ones', () => {
    const m = new RecentMap<number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    expect(m.get('a')).toBe(1);
    m.set('d', 4);
    // a was read, so b (the oldest unread) goes; a gets a second chance, unread again.
    expect([m.get('b'), m.get('c'), m.get('d')]).toEqual([undefined, 3, 4]);
    m.set('e', 5);
    // c and d were just read and a was passed over: a goes.
    expect(m.get('a')).toBeUndefined();
    expect([m.get('c'), m.get('d'), m.get('e')]).toEqual([3, 4, 5]);
  });

  it('stays within capacity when every entry has been read', () => {
    const m = new RecentMap<number>(2);
    m.set('a', 1);
    m.set('b', 2);
    m.get('a');
    m.get('b');
    m.set('c', 3);
    const kept = ['a', 'b', 'c'].filter((k) => m.get(k) !== undefined);
    expect(kept).toHaveLength(2);
    expect(kept).toContain('c');
  });

  it('replaces a value set again, and forgets a deleted key', () => {
    const m = new RecentMap<number>(2);
    m.set('a', 1);
    m.set('a', 2);
    expect(m.get('a')).toBe(2);
    m.delete('a');
    expect(m.get('a')).toBeUndefined();
  });
});
