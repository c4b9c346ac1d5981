'use server';

import * as defs from '@/lib/actions/upload-actions';
import { runAction } from '@/server/run-action';

export async function startCardUpload(input: unknown) {
  return runAction(defs.startCardUpload, input);
}

export async function startPayoutUpload(input: unknown) {
  return runAction(defs.startPayoutUpload, input);
}

export async function approvePayoutUpload(input: unknown) {
  return runAction(defs.approvePayoutUpload, input);
}

export async function rejectPayoutUpload(input: unknown) {
  return runAction(defs.rejectPayoutUpload, input);
}

export async function cancelOwnUpload(input: unknown) {
  return runAction(defs.cancelOwnUpload, input);
}
