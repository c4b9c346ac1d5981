'use server';

import { runAction } from '@/server/run-action';
import * as defs from '@/lib/actions/card-actions';

export async function createCard(input: unknown) {
  return runAction(defs.createCardAction, input);
}

export async function disableCard(input: unknown) {
  return runAction(defs.disableCardAction, input);
}

export async function enableCard(input: unknown) {
  return runAction(defs.enableCardAction, input);
}

export async function correctCardPhone(input: unknown) {
  return runAction(defs.correctCardPhoneAction, input);
}

export async function cancelCard(input: unknown) {
  return runAction(defs.cancelCardAction, input);
}

export async function topUpCard(input: unknown) {
  return runAction(defs.topUpCardAction, input);
}

export async function resendCardLink(input: unknown) {
  return runAction(defs.resendCardLinkAction, input);
}
