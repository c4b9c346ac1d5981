import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backgroundLoop } from './background-loop';
import { logger } from './observability/logger';

// The loop's clock is faked: the test moves time itself, so a busy machine cannot stretch or squeeze the intervals it checks.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('background loops', () => {
  it('run again at once while work is left, then wait the interval; a failed pass is logged and retried', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const passes: number[] = [];
    const answers = [true, true, false, 'fail', false];
    const stop = backgroundLoop('test loop', 200, async () => {
      passes.push(Date.now());
      const answer = answers.shift() ?? false;
      if (answer === 'fail') throw new Error('boom');
      return answer as boolean;
    });
    // Three passes back to back, with no time passing between them.
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toHaveLength(3);
    expect(passes[2] - passes[0]).toBe(0);
    // Then one per interval: the failed one, and the one after it.
    await vi.advanceTimersByTimeAsync(199);
    expect(passes).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(200);
    expect(passes).toHaveLength(5);
    expect(passes[3] - passes[2]).toBe(200);
    expect(passes[4] - passes[3]).toBe(200);
    await stop();
    const logged = errors.mock.calls.map((c) => c as unknown[]);
    errors.mockRestore();
    expect(logged).toEqual([[{ err: new Error('boom'), task: 'test loop' }, 'test loop failed; tried again at the next interval']]);
  });

  it('stop waits for the pass under way and starts no other', async () => {
    let running = 0;
    let finished = 0;
    let finish!: () => void;
    const stop = backgroundLoop('slow loop', 10, async () => {
      running++;
      await new Promise<void>((r) => {
        finish = r;
      });
      finished++;
      return true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(running).toBe(1);
    let stopped = false;
    const stopping = stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(finished).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(running).toBe(1);
  });
});
