'use server';

import * as defs from '@/lib/actions/approval-actions';
import { runAction } from '@/server/run-action';

export async function approveApproval(input: unknown) {
  return runAction(defs.approveApproval, input);
}

export async function rejectApproval(input: unknown) {
  return runAction(defs.rejectApproval, input);
}

export async function withdrawApproval(input: unknown) {
  return runAction(defs.withdrawApproval, input);
}

export async function requestAdjustment(input: unknown) {
  return runAction(defs.requestAdjustmentAction, input);
}

export async function setApprovalThreshold(input: unknown) {
  return runAction(defs.setThresholdAction, input);
}
