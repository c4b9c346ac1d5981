'use server';

import { runAction } from '@/server/run-action';
import * as defs from '@/lib/actions/developer-actions';

export async function createApiKey(input: unknown) {
  return runAction(defs.createApiKey, input);
}

export async function renameApiKey(input: unknown) {
  return runAction(defs.renameApiKey, input);
}

export async function revokeApiKey(input: unknown) {
  return runAction(defs.revokeApiKey, input);
}

export async function setWebhookUrl(input: unknown) {
  return runAction(defs.setWebhookUrl, input);
}

export async function revealWebhookSecret(input: unknown) {
  return runAction(defs.revealWebhookSecret, input);
}

export async function rotateWebhookSecret(input: unknown) {
  return runAction(defs.rotateWebhookSecret, input);
}

export async function replayEvent(input: unknown) {
  return runAction(defs.replayEvent, input);
}

export async function replayFailedWebhooks(input: unknown) {
  return runAction(defs.replayFailedWebhooks, input);
}

export async function sendTestWebhook(input: unknown) {
  return runAction(defs.sendTestWebhook, input);
}
