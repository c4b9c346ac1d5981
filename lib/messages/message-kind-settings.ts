import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { CalendarChoice, Locale } from '../i18n/locale';
import { appUrl } from '../link-token';
import { parseInput } from '../validation';
import { type MessageKind, SWITCHABLE_MESSAGE_KINDS } from './message-kinds';
import { messageText, sampleOrder } from './message-text';
import { smsParts } from './sms-parts';

export interface MessageKindSetting {
  kind: MessageKind;
  on: boolean;
  /** The text as a holder would read it, with sample figures, in the business's language. */
  preview: string;
  parts: number;
}

const DAY_MS = 86_400_000;

/** Each kind, whether the business sends it, and how it reads (Settings). */
export async function messageKindSettings(db: Db, businessId: number): Promise<MessageKindSetting[]> {
  const { rows } = await db.execute<{ name: string; customer_language: Locale; calendar: CalendarChoice; time_zone: string; message_kinds_off: string[] }>(
    sql`SELECT name, customer_language, calendar, time_zone, message_kinds_off FROM businesses WHERE id = ${businessId}`,
  );
  const b = rows[0];
  if (!b) throw new ServiceError('not_found', 'No such business.');
  return SWITCHABLE_MESSAGE_KINDS.map((kind) => {
    const preview = messageText(kind, {
      business: b.name,
      locale: b.customer_language,
      calendar: b.calendar,
      timeZone: b.time_zone,
      currency: 'ETB',
      last4: '1138',
      amount: 25_000,
      balance: 74_550,
      link: `${appUrl()}/c/${'x'.repeat(43)}`,
      expiresAt: new Date(Date.now() + (kind === 'expiry_7_days' ? 7 : 30) * DAY_MS),
      order: { ...sampleOrder(b.customer_language), total: 25_750, reference: `ord_${'x'.repeat(24)}` },
    });
    return { kind, on: !b.message_kinds_off.includes(kind), preview, parts: smsParts(preview).parts };
  });
}

export const messageKindsSchema = z.object({
  on: z.array(z.enum(SWITCHABLE_MESSAGE_KINDS, { error: `Each kind must be one of ${SWITCHABLE_MESSAGE_KINDS.join(', ')}.` }), {
    error: 'on must be a list of kinds.',
  }),
});

/** The owner turns kinds of cardholder message on or off for the business (test and live alike), audited. */
export async function setMessageKinds(db: Db, businessId: number, actor: Actor, input: unknown): Promise<{ off: MessageKind[] }> {
  const { on } = parseInput(messageKindsSchema, input);
  const off = SWITCHABLE_MESSAGE_KINDS.filter((k) => !on.includes(k));
  return inTransaction(db, async (tx) => {
    const { rows } = await tx.execute<{ message_kinds_off: string[] }>(sql`SELECT message_kinds_off FROM businesses WHERE id = ${businessId} FOR UPDATE`);
    if (!rows[0]) throw new ServiceError('not_found', 'No such business.');
    const before = [...rows[0].message_kinds_off].sort();
    if (before.join() === [...off].sort().join()) return { off };
    await tx.execute(sql`UPDATE businesses SET message_kinds_off = ${sql.param(off)}::text[] WHERE id = ${businessId}`);
    await recordAudit(tx, { businessId, mode: null, actor, action: 'business.message_kinds_changed', details: { from: before, to: off } });
    return { off };
  });
}
