import { bankName } from '@/components/history/payout-labels';
import { formatMoney } from '@/components/ui/money';
import type { AuditEntry, AuditSubject } from '@/lib/dashboard/list-audit-log';
import { dayIn, formatDateTime } from '@/lib/time-zone';
import { API_KEY_SCOPES } from '@/lib/validation';

const ROLE_WORDS: Record<string, string> = { owner: 'owner', operator: 'operator', finance: 'finance', support: 'support' };
const role = (r: unknown) => ROLE_WORDS[String(r)] ?? 'team member';
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : null);
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

/** "ETB 100.00", or an empty string when the amount or currency is unknown. */
function moneyOf(amount: unknown, currency: string | null | undefined): string {
  const n = num(amount);
  return n !== null && currency ? formatMoney(n, currency) : '';
}

function payoutWhere(s: AuditSubject | null): string {
  if (!s) return '';
  if (s.isLedgerTopup) return ` from the business balance to card ${s.destinationCard}`;
  const from = s.sourceCard ? ` from card ${s.sourceCard}` : '';
  if (s.payoutType === 'card_to_card') return `${from} to card ${s.destinationCard}`;
  if (s.payoutType === 'b2b') return `${from} to ${s.merchantName ?? 'another business'}`;
  return `${from} to ${bankName(s.bankSlug ?? null)} account ${s.accountNumber}`;
}

function payoutKind(s: AuditSubject | null, type?: string): string {
  const t = s?.payoutType ?? type;
  if (s?.isLedgerTopup) return 'top-up';
  if (t === 'card_to_card') return 'card-to-card payout';
  if (t === 'b2b') return 'payout to another business';
  if (t === 'bank') return 'bank or wallet payout';
  return 'payout';
}

function paymentKind(s: AuditSubject | null, type?: unknown): string {
  const t = s?.paymentType ?? text(type);
  if (t === 'hosted') return 'checkout link payment';
  if (t === 'direct-charge') return s?.paymentMethod ? `wallet charge (${bankName(s.paymentMethod)})` : 'wallet charge';
  return 'payment';
}

const withFee = (fee: string, minor: unknown) => ((num(minor) ?? 0) > 0 ? ` (fee ${fee})` : '');

/**
 * One audit entry as a sentence in plain words: amounts in currency units,
 * old and new values, bank and business names; never an action code.
 */
export function auditSentence(e: Pick<AuditEntry, 'action' | 'target' | 'details' | 'subject'>, timeZone: string): string {
  const d = e.details ?? {};
  const s = e.subject;
  const target = e.target ?? '';
  const currency = s?.currency ?? text(d.currency);
  const amount = moneyOf(d.amount ?? s?.amount, currency);
  const fee = moneyOf(d.service_fee, currency);
  const [family, ...rest] = e.action.split('.');
  const verb = rest.join('.');

  switch (family) {
    case 'card': {
      const reason = text(d.reason) ? ` Reason given: “${text(d.reason)}”.` : '';
      if (verb === 'created') return `Created card ${target}.`;
      if (verb === 'disabled') return `Disabled card ${target}.${reason}`;
      if (verb === 'enabled') return `Enabled card ${target} again.`;
      if (verb === 'provider_disabled') return `The provider disabled card ${target}.${reason}`;
      if (verb === 'provider_enabled') return `The provider enabled card ${target} again.`;
      if (verb === 'redeemed') {
        const receipt = text(d.merchant_reference) ? ` for receipt ${text(d.merchant_reference)}` : '';
        return `Redeemed ${amount} from card ${target}${receipt}${withFee(moneyOf(d.fee, currency), d.fee)}; the card then held ${moneyOf(d.balance_after, currency)}.`;
      }
      if (verb === 'cancelled') {
        const moved = moneyOf(d.moved_to_business_account, currency);
        return moved ? `Cancelled card ${target}; its balance of ${moved} moved to the business balance.` : `Cancelled card ${target}.`;
      }
      if (verb === 'expiry_extended') {
        const day = (v: unknown) => (text(v) && !Number.isNaN(Date.parse(String(v))) ? dayIn(timeZone, new Date(String(v))) : 'an unknown day');
        return `Extended the expiry of card ${target} from ${day(d.from)} to ${day(d.to)}.${reason}`;
      }
      if (verb === 'phone_corrected')
        return `Moved card ${target} from phone ${text(d.from) ?? 'unknown'} to ${text(d.to) ?? 'unknown'}; its old link stopped working.`;
      return `Changed card ${target}.`;
    }
    case 'hold': {
      const ref = text(d.hold_reference) ? ` ${text(d.hold_reference)}` : '';
      const after = `; the card then held ${moneyOf(d.balance_after, currency)} available`;
      if (verb === 'created') return `A till held ${amount} on card ${target}${ref}${after}.`;
      if (verb === 'captured') {
        return `Captured ${moneyOf(d.captured_amount, currency)} of the ${amount} hold${ref} on card ${target}${withFee(moneyOf(d.fee, currency), d.fee)}, the rest released${after}.`;
      }
      if (verb === 'voided') return `Voided the ${amount} hold${ref} on card ${target}: released${after}.`;
      if (verb === 'expired') return `The ${amount} hold${ref} on card ${target} expired uncaptured: released${after}.`;
      return `Changed the hold${ref} on card ${target}.`;
    }
    case 'payout': {
      const ref = target ? ` ${target}` : '';
      if (verb.endsWith('.created')) {
        const type = verb.split('.')[0];
        const status = text(d.status);
        const outcome = status === 'pending' ? '; it waits for the bank to confirm' : status === 'success' ? '; it succeeded at once' : '';
        return `Sent a ${payoutKind(s, type)}${ref} of ${amount}${withFee(fee, d.service_fee)}${payoutWhere(s)}${outcome}.`;
      }
      const what = `${capital(payoutKind(s))}${ref}${amount ? ` of ${amount}` : ''}${payoutWhere(s)}`;
      if (verb === 'success') return `${what} succeeded.`;
      if (verb === 'failed') {
        const back =
          d.refunded_to === 'card'
            ? ' The money went back to the source card.'
            : d.refunded_to === 'business_account'
              ? ' The money went back to the business balance.'
              : '';
        return `${what} failed: ${s?.failureReason ?? 'no reason was recorded.'}${back}`;
      }
      return `${what} changed.`;
    }
    case 'transfer':
      return `Started a top-up${target ? ` ${target}` : ''} of ${amount} from the business balance to card ${text(d.card_number) ?? s?.destinationCard ?? ''}.`;
    case 'payment': {
      const card = text(d.card_number) ?? s?.cardNumber;
      const what = `${capital(paymentKind(s, d.type))} ${target} of ${amount}`;
      if (verb === 'created') return `Started a ${paymentKind(s, d.type)} ${target} of ${amount}${withFee(fee, d.service_fee)} for card ${card}.`;
      if (verb === 'success')
        return d.credited_to === 'business_account'
          ? d.limit_exceeded === 'max_card_balance'
            ? `${what} succeeded; it would have taken card ${card} over its maximum balance, so the business balance was credited.`
            : `${what} succeeded; the card could no longer take money, so the business balance was credited.`
          : `${what} succeeded; card ${card} was credited.`;
      if (verb === 'failed') return `${what} failed: ${s?.failureReason ?? 'no reason was recorded.'}`;
      if (verb === 'cancelled') return `${what} was cancelled: ${s?.failureReason ?? 'no reason was recorded.'}`;
      return `${what} changed.`;
    }
    case 'business': {
      if (verb === 'credited') return `The business balance was credited with ${amount}.`;
      if (verb === 'settings_changed') {
        const from = (d.from ?? {}) as Record<string, unknown>;
        const to = (d.to ?? {}) as Record<string, unknown>;
        const changes: string[] = [];
        if (from.time_zone !== to.time_zone) changes.push(`the time zone from ${from.time_zone} to ${to.time_zone}`);
        if (from.country !== to.country) changes.push(`the country from ${from.country} to ${to.country}`);
        if (from.customer_language !== to.customer_language) changes.push(`the customers' language from ${from.customer_language} to ${to.customer_language}`);
        if (from.calendar !== to.calendar) changes.push(`the customers' calendar from ${from.calendar} to ${to.calendar}`);
        return changes.length ? `Changed ${changes.join(' and ')}.` : 'Saved the business settings without changes.';
      }
      if (verb === 'message_kinds_changed') {
        const off = Array.isArray(d.to) ? (d.to as string[]) : [];
        return off.length ? `Turned off these messages to cardholders: ${off.join(', ').replaceAll('_', ' ')}.` : 'Turned on every message to cardholders.';
      }
      if (verb === 'limits_changed') {
        const limit = (name: string, v: unknown) => `${name} ${num(v) === null ? 'none' : moneyOf(v, currency)}`;
        return `Set the ${currency} limits (${text(d.mode)} mode): ${limit('largest payout', d.max_payout)}, ${limit('payouts per day', d.daily_payout)}, ${limit('most a card may hold', d.max_card_balance)}.`;
      }
      if (verb === 'two_factor_required')
        return d.required
          ? 'Required two-factor sign-in for everyone in the business; users without it must set it up before anything else.'
          : 'Stopped requiring two-factor sign-in for the business.';
      if (verb === 'expiry_policy_changed') {
        const policy = (v: unknown) => {
          const p = (v ?? {}) as Record<string, unknown>;
          const months = num(p.months);
          const span = months === null ? 'some months' : `${months} month${months === 1 ? '' : 's'}`;
          if (p.policy === 'after_issue') return `expire ${span} after issue`;
          if (p.policy === 'after_last_load') return `expire ${span} after their last load`;
          return 'never expire';
        };
        return `Changed the card expiry policy from “${policy(d.from)}” to “${policy(d.to)}”, for cards issued or loaded from now on.`;
      }
      return 'Changed the business settings.';
    }
    case 'api_key':
      if (verb === 'created') {
        const made = text(d.name) ? `Created API key “${text(d.name)}” (${target}…)` : `Created API key ${target}…`;
        // Keys made before scopes existed carry none in their record: they had every scope.
        return Array.isArray(d.scopes) && d.scopes.length < API_KEY_SCOPES.length ? `${made}, restricted to ${d.scopes.join(', ')}.` : `${made}.`;
      }
      if (verb === 'renamed') return `Renamed API key ${target}… from “${text(d.from) ?? ''}” to “${text(d.to) ?? ''}”.`;
      if (verb === 'revoked') return `Revoked API key ${target}…; it no longer works.`;
      return `Changed API key ${target}….`;
    case 'webhook': {
      if (verb === 'url_set') {
        const from = text(d.from);
        const to = text(d.to) ?? target;
        if (from && from !== to) return `Changed the webhook URL from ${from} to ${to}.`;
        return from === to ? `Saved the webhook URL ${to} again (unchanged).` : `Set the webhook URL to ${to}.`;
      }
      if (verb === 'secret_rotated') return `Replaced the webhook signing secret of ${target}; the old one works for 24 more hours.`;
      if (verb === 'secret_revealed') return `Showed the webhook signing secret of ${target}.`;
      if (verb === 'test_sent') {
        const code = num(d.status_code);
        return d.ok
          ? `Sent a test event to ${target}; it was delivered${code === null ? '' : ` (HTTP ${code})`}.`
          : `Sent a test event to ${target}; it was not delivered.`;
      }
      if (verb === 'replayed') {
        const outcome =
          d.outcome === 'queued'
            ? 'it was queued to be sent again'
            : d.outcome === 'in_flight'
              ? 'it was not sent, because the last attempt was still under way'
              : d.outcome === 'endpoint_disabled'
                ? 'it was not sent, because the webhook URL is turned off'
                : d.outcome === 'no_endpoint'
                  ? 'it was not sent, because there was no webhook URL'
                  : 'it was queued to be sent again';
        return `Replayed event ${target}: ${outcome}.`;
      }
      if (verb === 'failed_replayed') {
        const [from, to] = target.split('/');
        const n = num(d.deliveries) ?? 0;
        const period =
          from && to && !Number.isNaN(Date.parse(from))
            ? ` of events from ${formatDateTime(timeZone, new Date(from))} to ${formatDateTime(timeZone, new Date(to))}`
            : '';
        return `Replayed the failed deliveries${period}: ${n} ${n === 1 ? 'delivery was' : 'deliveries were'} queued.`;
      }
      return 'Changed the webhook settings.';
    }
    case 'user':
      if (verb === 'added') return `Added ${target} to the team as ${role(d.role)}.`;
      if (verb === 'removed') return `Removed ${target} (${role(d.role)}) from the team.`;
      if (verb === 'role_changed') return `Changed the role of ${target} from ${role(d.from)} to ${role(d.to)}.`;
      if (verb === 'invited') return `Invited ${target} to join the team as ${role(d.role)}; the link works once, for 48 hours.`;
      if (verb === 'invitation_revoked') return `Revoked the invitation of ${target} (${role(d.role)}); its link no longer works.`;
      if (verb === 'joined') return `${target} accepted the invitation and joined the team as ${role(d.role)}.`;
      if (verb === 'reset_link_created') return `Made a password reset link for ${target}; it works once, for 24 hours.`;
      if (verb === 'password_reset') return `${target} chose a new password through a reset link.`;
      if (verb === 'password_changed') return `${target} changed their own password.`;
      if (verb === 'two_factor_enabled') return `${target} turned on two-factor sign-in and received 10 recovery codes.`;
      if (verb === 'two_factor_disabled')
        return `${target} turned off two-factor sign-in${d.proof === 'code' ? ', confirming with a code' : d.proof === 'password' ? ', confirming with their password' : ''}.`;
      if (verb === 'recovery_code_used') {
        const left = num(d.codes_left);
        return `${target} signed in with a recovery code${left === null ? '' : `; ${left} ${left === 1 ? 'is' : 'are'} left`}.`;
      }
      return `Changed the team member ${target}.`;
    case 'approval': {
      if (verb === 'threshold_set') {
        const limit = moneyOf(d.amount, text(d.currency));
        return limit
          ? `Set the approval threshold of ${text(d.currency)} payouts to ${limit}.`
          : `Removed the approval threshold of ${text(d.currency)} payouts.`;
      }
      const what =
        d.kind === 'adjustment'
          ? `adjustment ${d.direction === 'decrease' ? 'taking' : 'adding'} ${amount} ${d.direction === 'decrease' ? 'from' : 'to'} card ${target}`
          : d.kind === 'refund'
            ? `refund of ${amount} from card ${target} to a payer`
            : d.kind === 'upload'
              ? `CSV upload of payouts ${target}`
              : `payout of ${amount} from card ${target}`;
      const note = text(d.note) ? ` Note: “${text(d.note)}”.` : '';
      const said: Record<string, string> = {
        requested: `Asked for approval of ${d.kind === 'adjustment' ? 'an' : 'a'} ${what}.`,
        approved: `Approved the ${what}${text(d.result_reference) ? ` (${text(d.result_reference)})` : ''}.`,
        rejected: `Rejected the ${what}.`,
        withdrawn: `Withdrew their request for the ${what}.`,
        expired: `The ${what} expired after 72 hours without a decision; its money was released.`,
        failed: `Approved the ${what}, but it could not be done: ${text(d.reason) ?? 'no reason given'}. Its money was released.`,
      };
      return (said[verb] ?? `Changed the approval of the ${what}.`) + note;
    }
    case 'upload': {
      const file = `the CSV upload of ${d.kind === 'payouts' ? 'payouts' : 'cards'} ${target}`;
      const said: Record<string, string> = {
        started: `Started ${file}.`,
        awaiting_approval: `Started ${file}; its total reaches the approval threshold, so it waits for a second person.`,
        approved: `Approved ${file}; its rows run now.`,
        rejected: `Rejected ${file}; none of its rows will run.`,
        cancelled: `Cancelled ${file}; the rows not yet run will not run.`,
        expired: `${capital(file)} expired after 72 hours without a decision; none of its rows will run.`,
      };
      return said[verb] ?? `Changed ${file}.`;
    }
    case 'demo':
      return 'Created the demo business.';
    default:
      return target ? `Changed ${target}.` : 'Made a change.';
  }
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The action filter's families, in words. */
export const AUDIT_FAMILY_WORDS: Record<string, string> = {
  card: 'Cards',
  payout: 'Payouts',
  transfer: 'Top-ups from business balance',
  payment: 'Payments',
  business: 'Business balance and settings',
  approval: 'Approvals and adjustments',
  upload: 'CSV uploads',
  api_key: 'API keys',
  webhook: 'Webhooks',
  user: 'Team and sign-in',
};
