'use server';

import * as defs from '@/lib/actions/till-actions';
import { runAction } from '@/server/run-action';

export async function findAtTill(input: unknown) {
  return runAction(defs.tillFindAction, input);
}

export async function redeemAtTill(input: unknown) {
  return runAction(defs.tillRedeemAction, input);
}

export async function holdAtTill(input: unknown) {
  return runAction(defs.tillHoldAction, input);
}

export async function captureAtTill(input: unknown) {
  return runAction(defs.tillCaptureAction, input);
}

export async function voidAtTill(input: unknown) {
  return runAction(defs.tillVoidAction, input);
}

export async function confirmAtTill(input: unknown) {
  return runAction(defs.tillConfirmAction, input);
}
