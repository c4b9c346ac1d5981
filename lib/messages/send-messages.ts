import { sql } from 'drizzle-orm';
import type { Stop } from '../background-loop';
import type { Db, DbOrTx } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { ClaimedJob, JobOutcome } from '../jobs/job-queue';
import { type JobHandler, type JobStep, runJobNow, startJobWorker } from '../jobs/job-worker';
import { appUrl, newLinkToken } from '../link-token';
import { sendMail } from '../mail/send-mail';
import { logger } from '../observability/logger';
import { afroMessageConfig, type AfroMessageConfig, sendSms, type SmsOutcome } from '../sms/afromessage';
import type { CalendarChoice, Locale } from '../i18n/locale';
import type { Mode } from '../validation';
import { messageEventPayload } from '../webhooks/payloads';
import { enqueueEvent } from '../webhooks/outbox';
import { MASKED_SPEND_CODE, SPEND_CODE_TRIES, spendCode } from '../spend-codes/spend-code';
import { type MessageChannel, type MessageKind, type MessageStatus, maskAddress } from './message-kinds';
import { messageSubject, messageText, type MessageFacts } from './message-text';

interface MessageRow {
  id: number;
  reference: string;
  mode: Mode;
  business_id: number;
  kind: MessageKind;
  channel: MessageChannel;
  to_address: string;
  facts: { transaction_id?: number; link_url?: string; confirmation_reference?: string; amount?: number };
  text: string | null;
  status: MessageStatus;
  /** None for a shop order's receipt: a message of the order, not of a card. */
  card_number: string | null;
  currency: string;
  expires_at: Date | null;
  business_name: string;
  customer_language: Locale;
  calendar: CalendarChoice;
  time_zone: string;
  balance_now: string;
  entry_amount: string | null;
  balance_after: string | null;
  order_reference: string | null;
  order_amount: string | null;
  order_fee: string | null;
  buyer_name: string | null;
  recipient_name: string | null;
  order_message: string | null;
  created_at: Date;
  /** A spend code's confirmation: the salt its code is derived from, and whether it still waits for the code. */
  code_salt: string | null;
  code_wanted: boolean | null;
}

async function load(db: DbOrTx, reference: string): Promise<MessageRow | undefined> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT m.id, m.reference, m.mode, m.business_id, m.kind, m.channel, m.to_address, m.facts, m.text, m.status, m.created_at,
           c.card_number, coalesce(c.currency, o.currency) AS currency, c.expires_at, b.name AS business_name, b.customer_language, b.calendar,
           b.time_zone, coalesce(la.balance, 0) AS balance_now, e.amount AS entry_amount, e.balance_after,
           o.reference AS order_reference, o.amount AS order_amount, p.service_fee AS order_fee, o.buyer_name, o.recipient_name,
           o.message AS order_message, sc.code_salt,
           (sc.used_at IS NULL AND sc.attempts < ${SPEND_CODE_TRIES} AND sc.expires_at > now()) AS code_wanted
      FROM cardholder_messages m
      JOIN businesses b ON b.id = m.business_id
      LEFT JOIN cards c ON c.id = m.card_id
      LEFT JOIN ledger_accounts la ON la.id = c.account_id
      LEFT JOIN shop_orders o ON o.id = m.order_id
      LEFT JOIN payments p ON p.id = o.payment_id
      LEFT JOIN ledger_entries e ON e.transaction_id = (m.facts->>'transaction_id')::bigint AND e.account_id = c.account_id
      LEFT JOIN spend_confirmations sc ON sc.reference = m.facts->>'confirmation_reference' AND sc.business_id = m.business_id
     WHERE m.reference = ${reference}`);
  const r = rows[0];
  if (!r) return undefined;
  return {
    ...(r as unknown as MessageRow),
    id: Number(r.id),
    created_at: new Date(r.created_at as string),
    expires_at: r.expires_at === null ? null : new Date(r.expires_at as string),
  };
}

function factsOf(m: MessageRow): MessageFacts {
  return {
    business: m.business_name,
    locale: m.customer_language,
    calendar: m.calendar,
    timeZone: m.time_zone,
    currency: m.currency,
    last4: m.card_number?.slice(-4) ?? '',
    amount: m.order_amount !== null ? Number(m.order_amount) : m.entry_amount === null ? m.facts.amount : Number(m.entry_amount),
    balance: Number(m.balance_after ?? m.balance_now),
    link: m.facts.link_url,
    expiresAt: m.expires_at,
    ...(m.order_reference !== null && {
      order: {
        reference: m.order_reference,
        buyer: m.buyer_name ?? '',
        recipient: m.recipient_name ?? '',
        message: m.order_message,
        total: Number(m.order_amount) + Number(m.order_fee ?? 0),
      },
    }),
  };
}

/**
 * The text is written once, from the movement it follows (its own balance after), the first time the job sees it.
 * A spend code's is stored masked: every list shows that, and the code is put in only as it is sent (sentText).
 */
async function textOf(db: Db, m: MessageRow): Promise<string> {
  if (m.text !== null) return m.text;
  const text = messageText(m.kind, { ...factsOf(m), code: MASKED_SPEND_CODE }, m.channel);
  const { rows } = await db.execute<{ text: string }>(
    sql`UPDATE cardholder_messages SET text = coalesce(text, ${text}), updated_at = now() WHERE id = ${m.id} RETURNING text`,
  );
  return rows[0]?.text ?? text;
}

/** A final outcome and its event, together: the message is sent (the provider took it) or failed. */
async function settle(db: Db, m: MessageRow, outcome: { kind: 'sent'; providerMessageId: string | null } | { kind: 'failed'; error: string }): Promise<void> {
  await inTransaction(db, async (tx) => {
    const { rows } = await tx.execute<{ updated_at: string; provider_message_id: string | null; error: string | null }>(
      outcome.kind === 'sent'
        ? sql`UPDATE cardholder_messages SET status = CASE WHEN status = 'queued' THEN 'sent' ELSE status END, in_flight = false,
                provider_message_id = coalesce(${outcome.providerMessageId}, provider_message_id), sent_at = coalesce(sent_at, now()),
                error = NULL, updated_at = now()
              WHERE id = ${m.id} AND status IN ('queued', 'delivered') RETURNING updated_at::text, provider_message_id, error`
        : sql`UPDATE cardholder_messages SET status = 'failed', in_flight = false, error = ${outcome.error.slice(0, 500)}, updated_at = now()
              WHERE id = ${m.id} AND status = 'queued' RETURNING updated_at::text, provider_message_id, error`,
    );
    const row = rows[0];
    if (!row) return;
    await enqueueEvent(tx, {
      businessId: m.business_id,
      mode: m.mode,
      type: outcome.kind === 'sent' ? 'message.sent' : 'message.failed',
      subjectReference: m.reference,
      payload: messageEventPayload({
        type: outcome.kind === 'sent' ? 'message.sent' : 'message.failed',
        mode: m.mode,
        kind: m.kind,
        channel: m.channel,
        messageReference: m.reference,
        cardNumber: m.card_number,
        orderReference: m.order_reference,
        to: maskAddress(m.to_address),
        providerMessageId: row.provider_message_id,
        error: row.error,
        createdAt: m.created_at,
        updatedAt: new Date(row.updated_at),
      }),
    });
  });
}

const DONE: JobOutcome = { kind: 'done' };
export type MessageStepResult = MessageStatus | 'retry';

/**
 * Marks a send as begun, committed before the request leaves: a message seen in flight again was maybe sent (a crash
 * between the two), so it counts as an uncertain send. AfroMessage takes no idempotency key: after one uncertain
 * send the message may go once more, never a third time. Answers the callback token, or null when it may not be sent.
 */
async function beginSend(db: Db, m: MessageRow): Promise<string | null> {
  const { token, hash } = newLinkToken();
  const { rows } = await db.execute<{ in_flight: boolean }>(sql`
    UPDATE cardholder_messages SET
      uncertain_sends = uncertain_sends + in_flight::int,
      in_flight = (uncertain_sends + in_flight::int) < 2,
      sends = sends + ((uncertain_sends + in_flight::int) < 2)::int,
      callback_hash = CASE WHEN (uncertain_sends + in_flight::int) < 2 THEN ${hash} ELSE callback_hash END,
      updated_at = now()
    WHERE id = ${m.id} AND status = 'queued'
    RETURNING in_flight`);
  return rows[0]?.in_flight ? token : null;
}

const NOT_AGAIN =
  'Not sent again: an earlier send may have reached AfroMessage (no answer came), and AfroMessage takes no idempotency key, so another try could send it a third time.';

async function note(db: Db, m: MessageRow, error: string, uncertain: boolean): Promise<number> {
  const { rows } = await db.execute<{ uncertain_sends: number }>(sql`
    UPDATE cardholder_messages SET in_flight = false, error = ${error.slice(0, 500)}, uncertain_sends = uncertain_sends + ${uncertain ? 1 : 0},
      updated_at = now()
    WHERE id = ${m.id} RETURNING uncertain_sends`);
  return Number(rows[0]?.uncertain_sends ?? 0);
}

/** What goes to the provider: the stored text, or for a spend code the text with its code, derived again now. */
const sentText = (m: MessageRow, stored: string) =>
  m.kind === 'spend_code' && m.code_salt ? messageText(m.kind, { ...factsOf(m), code: spendCode(m.mode, m.code_salt) }, m.channel) : stored;

async function deliver(db: Db, config: AfroMessageConfig | undefined, m: MessageRow, stored: string, job: ClaimedJob): Promise<JobStep<MessageStepResult>> {
  if (m.kind === 'spend_code' && !m.code_wanted) {
    await settle(db, m, { kind: 'failed', error: 'Not sent: the spend no longer waits for this code (it expired, was used, or was ended by wrong codes).' });
    return { outcome: DONE, result: 'failed' };
  }
  const text = sentText(m, stored);
  if (m.channel === 'sms' && !config) {
    await settle(db, m, { kind: 'failed', error: 'SMS is not configured on this service (AFROMESSAGE_TOKEN is unset).' });
    return { outcome: DONE, result: 'failed' };
  }
  const token = await beginSend(db, m);
  if (token === null) {
    await settle(db, m, { kind: 'failed', error: NOT_AGAIN });
    return { outcome: DONE, result: 'failed' };
  }
  let outcome: SmsOutcome;
  if (m.channel === 'sms') {
    outcome = await sendSms(config!, { to: m.to_address, message: text, callback: `${appUrl()}/api/providers/afromessage/callback/${token}` });
  } else {
    const mailed = await sendMail({ to: m.to_address, subject: messageSubject(factsOf(m), m.kind), text });
    outcome =
      mailed === 'sent'
        ? { kind: 'accepted', messageId: null, status: null }
        : mailed === 'off'
          ? { kind: 'refused', error: 'Email is not configured on this service (SMTP_URL is unset).' }
          : { kind: 'unavailable', error: 'The mail server did not take the message.' };
  }
  if (outcome.kind === 'accepted') {
    await settle(db, m, { kind: 'sent', providerMessageId: outcome.messageId });
    return { outcome: DONE, result: 'sent' };
  }
  if (outcome.kind === 'refused') {
    await settle(db, m, { kind: 'failed', error: outcome.error });
    return { outcome: DONE, result: 'failed' };
  }
  const uncertain = await note(db, m, outcome.error, outcome.kind === 'unknown');
  if (uncertain >= 2) {
    await settle(db, m, { kind: 'failed', error: `${outcome.error}. ${NOT_AGAIN}` });
    return { outcome: DONE, result: 'failed' };
  }
  if (job.attempts >= job.maxAttempts) {
    await settle(db, m, { kind: 'failed', error: `${outcome.error} (gave up after ${job.attempts} tries)` });
    return { outcome: DONE, result: 'failed' };
  }
  return { outcome: { kind: 'retry', error: outcome.error }, result: 'retry' };
}

/** The `cardholder_message` job: fills in the text, then records it (test mode) or sends it (live). */
function messageJobs(config: AfroMessageConfig | undefined): JobHandler<MessageStepResult> {
  return {
    kind: 'cardholder_message',
    leaseMs: (config?.timeoutMs ?? 15_000) * 2 + 5_000,
    failed: 'retry',
    run: async (db, job) => {
      const m = await load(db, job.subject);
      if (m?.status !== 'queued') return { outcome: DONE, result: m?.status ?? 'failed' };
      const text = await textOf(db, m);
      if (m.mode === 'test') {
        await db.execute(sql`UPDATE cardholder_messages SET status = 'not_sent_test_mode', updated_at = now() WHERE id = ${m.id} AND status = 'queued'`);
        return { outcome: DONE, result: 'not_sent_test_mode' };
      }
      return deliver(db, config, m, text, job);
    },
  };
}

/** A message's first try straight after its commit (a share): its status then, or undefined when a worker has it. */
export async function sendMessageNow(db: Db, reference: string): Promise<MessageStepResult | undefined> {
  try {
    return await runJobNow(db, messageJobs(afroMessageConfig()), reference);
  } catch (err) {
    logger.error({ err }, `cardholder message ${reference}`);
    return 'retry';
  }
}

/** The worker of `cardholder_message` jobs: test mode's are only recorded, so it runs with or without AfroMessage. */
export const startCardholderMessages = (db: Db): Stop =>
  startJobWorker(db, messageJobs(afroMessageConfig()), { batch: 20, pollMs: Number(process.env.MESSAGE_POLL_MS) || 500 });
