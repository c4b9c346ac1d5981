import { describe, expect, it } from 'vitest';
import { delayAfter, SignInLimits } from './sign-in-limits';

describe('sign-in limits', () => {
  it('delays an email at one address after five wrong passwords, doubling, and not the same email elsewhere', () => {
    const limits = new SignInLimits(1000);
    const t0 = 1_000_000;
    for (let i = 0; i < 5; i++) {
      expect(limits.admit('owner@x.test', 'attacker', t0 + i)).toBe(true);
      limits.failed('owner@x.test', 'attacker', t0 + i);
    }
    expect(limits.admit('owner@x.test', 'attacker', t0 + 10)).toBe(false);
    expect(limits.admit('OWNER@x.test ', 'owner-home', t0 + 10)).toBe(true);
    expect(limits.admit('owner@x.test', 'attacker', t0 + 4 + 1000)).toBe(true);
    limits.failed('owner@x.test', 'attacker', t0 + 1004);
    expect(limits.admit('owner@x.test', 'attacker', t0 + 1004 + 1999)).toBe(false);
    expect(limits.admit('owner@x.test', 'attacker', t0 + 1004 + 2000)).toBe(true);
  });

  it('forgets the wrong passwords of a pair at a right one', () => {
    const limits = new SignInLimits(1000);
    for (let i = 0; i < 6; i++) limits.failed('a@x.test', 'here', 0);
    expect(limits.admit('a@x.test', 'here', 1)).toBe(false);
    limits.succeeded('a@x.test', 'here');
    expect(limits.admit('a@x.test', 'here', 2)).toBe(true);
  });

  it('limits one address across all emails', () => {
    const limits = new SignInLimits(10);
    const admitted = Array.from({ length: 30 }, (_, i) => limits.admit(`user${i}@x.test`, 'sprayer', 0)).filter(Boolean).length;
    expect(admitted).toBe(10);
    expect(limits.admit('user99@x.test', 'elsewhere', 0)).toBe(true);
  });

  it('caps the delay at 15 minutes', () => {
    expect(delayAfter(4)).toBe(0);
    expect(delayAfter(5)).toBe(1000);
    expect(delayAfter(100)).toBe(15 * 60_000);
  });
});
