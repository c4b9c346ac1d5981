import { describe, expect, it } from 'vitest';
import { PROGRESS_PER_LIFE, runCrashTest } from '../../bench/crash/crash-test';

// About a minute and a half with its own PostgreSQL and server: run under CI=true or LONG_TESTS=1.
const LONG = Boolean(process.env.CI || process.env.LONG_TESTS);

describe.skipIf(!LONG)('crash test: 16 clients, 10 SIGKILLs of the server, one immediate PostgreSQL shutdown', () => {
  it('every 2xx exists exactly once, nothing refused left an entry, the ledger is clean and every final payout has its event', async () => {
    const result = await runCrashTest({ log: (l) => console.log(l) });
    console.log(
      `crash test: survived ${result.server_kills} SIGKILLs and ${result.postgres_immediate_shutdowns} immediate PostgreSQL shutdown in ${result.seconds.toFixed(0)} s; ` +
        `${result.requests} requests: ${result.succeeded} succeeded, ${result.refused} refused ${JSON.stringify(result.refused_by_answer)}, ` +
        `${result.undecided} left "in progress" by a kill (${result.undecided_that_committed} of them committed, each once)`,
    );
    expect(result.server_kills).toBe(10);
    expect(result.postgres_immediate_shutdowns).toBeGreaterThanOrEqual(1);
    // Every server life, the last included, took its payouts before it was killed (the run throws otherwise).
    expect(result.succeeded).toBeGreaterThanOrEqual((result.server_kills + 1) * PROGRESS_PER_LIFE);
    expect(result.duplicates).toEqual([]);
    expect(result.orphans).toEqual([]);
    expect(result.missing).toEqual([]);
    expect(result.refused_with_entry).toEqual([]);
    expect(result.missing_events).toEqual([]);
    expect(result.ledger_problems).toEqual([]);
  }, 600_000);
});
