/**
 * What this process knows of its own life, read by /api/ready and the live
 * streams: on globalThis, as each route is bundled apart from scripts/start.ts.
 */
interface InstanceState {
  workersRunning: boolean;
  draining: boolean;
  /** Called once when the instance starts to drain: each open live stream tells its client to reconnect elsewhere. */
  onDrain: Set<() => void>;
}

const globalForState = globalThis as unknown as { __instanceState?: InstanceState };
globalForState.__instanceState ??= { workersRunning: false, draining: false, onDrain: new Set() };
export const instanceState = globalForState.__instanceState;

/** Runs `fn` when the instance drains (at once if it already is); answers its removal. */
export function whenDraining(fn: () => void): () => void {
  if (instanceState.draining) {
    fn();
    return () => {};
  }
  instanceState.onDrain.add(fn);
  return () => instanceState.onDrain.delete(fn);
}

export function startDraining(): void {
  if (instanceState.draining) return;
  instanceState.draining = true;
  for (const fn of instanceState.onDrain) fn();
  instanceState.onDrain.clear();
}
