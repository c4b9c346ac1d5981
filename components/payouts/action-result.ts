import type { ActionFailure, ActionResult } from '@/lib/actions/define-action';

/** A refused action as an Error, so TanStack Query's useQuery and useMutation carry the typed failure in `error`. */
class ActionFailed extends Error {
  constructor(readonly failure: ActionFailure) {
    super(failure.message);
    this.name = 'ActionFailed';
  }
}

/** The data of a successful action, or an ActionFailed thrown with the core's code and field. */
export async function unwrap<T>(result: Promise<ActionResult<T>>): Promise<T> {
  const r = await result;
  if (!r.ok) throw new ActionFailed(r);
  return r.data;
}

/** The failure an action's error carries, or one saying what happened when the call itself failed (network, server gone). */
export function failureOf(err: unknown): ActionFailure {
  if (err instanceof ActionFailed) return err.failure;
  return { ok: false, code: 'internal', message: 'We could not reach the server; check the connection. Sending again from this form never moves money twice.' };
}

/** The first of `order` that has an error, for focus. */
export function firstInvalid<F extends string>(order: readonly F[], errors: Partial<Record<string, unknown>>): F | undefined {
  return order.find((f) => errors[f] !== undefined);
}
