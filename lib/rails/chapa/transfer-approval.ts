import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { parseMinorUnits, textField, type ChapaBody } from './chapa-answers';
import type { ChapaConfig } from './config';

export interface ApprovalRequest {
  rawBody: string;
  /**
   * The `Chapa-Signature` and `x-chapa-signature` headers: the call is Chapa's when either is the hex HMAC-SHA256 of the
   * raw body with CHAPA_APPROVAL_SECRET (Chapa may send both, one of them signing only the secret, as on webhooks).
   */
  signatures: (string | null)[];
}

function signedWith(secret: string, rawBody: string, signature: string | null): boolean {
  if (!signature) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Chapa's server approval of a transfer (POST /api/providers/chapa/approval):
 * approved only when the call is signed with the approval secret and names a
 * transfer we queued for a live payout that is still pending, for the same
 * amount and account number (and currency, when it names one; its `bank` is Chapa's own name for it and not compared).
 * Anything else, or anything unreadable, is rejected.
 */
export async function approveTransfer(db: Db, config: ChapaConfig | null, req: ApprovalRequest): Promise<boolean> {
  const secret = config?.approvalSecret;
  if (!secret || !req.signatures.some((s) => signedWith(secret, req.rawBody, s))) return false;
  let body: ChapaBody;
  try {
    const parsed: unknown = JSON.parse(req.rawBody);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return false;
    body = parsed as ChapaBody;
  } catch {
    return false;
  }
  const reference = textField(body, 'reference') ?? textField(body, 'tx_ref');
  const amount = parseMinorUnits(body.amount);
  const accountNumber = textField(body, 'account_number');
  if (!reference || amount === null || !accountNumber) return false;
  const found = await db.execute<{ amount: number; currency: string; account_number: string | null }>(sql`
    SELECT r.amount, r.currency, p.account_number
    FROM rail_requests r JOIN payouts p ON p.id = r.payout_id
    WHERE r.reference = ${reference} AND r.provider = 'chapa' AND r.state <> 'done' AND p.status = 'pending' AND p.mode = 'live'`);
  const held = found.rows[0];
  if (!held || Number(held.amount) !== amount || held.account_number !== accountNumber) return false;
  const currency = textField(body, 'currency');
  if (currency && currency.toUpperCase() !== held.currency) return false;
  return true;
}
