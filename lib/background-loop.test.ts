import { describe, expect, it, vi } from 'vitest';
import { backgroundLoop } from './background-loop';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('background loops', () => {
  it('run again at once while work is left, then wait the interval; a failed pass is logged and retried', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const passes: number[] = [];
    const answers = [true, true, false, 'fail', false];
    const stop = backgroundLoop('test loop', 200, async () => {
      passes.push(Date.now());
      const answer = answers.shift() ?? false;
      if (answer === 'fail') throw new Error('boom');
      return answer as boolean;
    });
    await sleep(650);
    await stop();
    const logged = errors.mock.calls.map((c) => c.join(' '));
    errors.mockRestore();
    // Three passes back to back, then one per interval: the failed one and the one after it.
    expect(passes.length).toBeGreaterThanOrEqual(5);
    expect(passes[2] - passes[0]).toBeLessThan(150);
    expect(passes[3] - passes[2]).toBeGreaterThanOrEqual(195);
    expect(passes[4] - passes[3]).toBeGreaterThanOrEqual(195);
    expect(logged).toEqual(['test loop: boom']);
  });

  it('stop waits for the pass under way and starts no other', async () => {
    let running = 0;
    let finished = 0;
    const stop = backgroundLoop('slow loop', 10, async () => {
      running++;
      await sleep(50);
      finished++;
      return true;
    });
    await sleep(10);
    await stop();
    expect(finished).toBe(running);
    const after = running;
    await sleep(80);
    expect(running).toBe(after);
  });
});
