import { logger } from './observability/logger';

/** Stops a background task; resolves once its running pass has finished. */
export type Stop = () => Promise<void>;

/**
 * Runs `pass` now and then every `intervalMs`; straight away again while it
 * reports that work is left. A failed pass is logged under `name` and tried
 * again at the next interval. The returned stop waits for the running pass.
 */
export function backgroundLoop(name: string, intervalMs: number, pass: () => Promise<boolean>): Stop {
  let stopped = false;
  let wake: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        if (await pass()) continue;
      } catch (err) {
        logger.error({ err, task: name }, `${name} failed; tried again at the next interval`);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, intervalMs);
      });
    }
  })();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    wake?.();
    await loop;
  };
}
