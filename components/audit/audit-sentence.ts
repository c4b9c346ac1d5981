import { createTranslator } from 'next-intl';
import { bankName } from '@/components/history/payout-labels';
import { formatMoney } from '@/components/ui/money';
import type { AuditEntry, AuditSubject } from '@/lib/dashboard/list-audit-log';
import { formatDay, formatDayTime } from '@/lib/i18n/date-text';
import type { CalendarChoice, Locale } from '@/lib/i18n/locale';
import { dayIn } from '@/lib/time-zone';
import { API_KEY_SCOPES } from '@/lib/validation';
import am from '@/messages/am.json';
import en from '@/messages/en.json';

/** Who reads the sentence: English and the Gregorian calendar (the CSV export's) unless said otherwise. */
export interface AuditReader {
  locale: Locale;
  calendar: CalendarChoice;
}

// Typed loosely: the sentence keys are checked against the catalogues by tests/rules/i18n-catalogue.test.ts.
// biome-ignore lint/suspicious/noExplicitAny: next-intl types a translator's arguments from its messages' type
const CATALOGUES: Record<Locale, Record<string, any>> = { en, am };
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : null);
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
// Ethiopic script has no capitals: this changes English only.
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const ROLES = new Set(['owner', 'operator', 'finance', 'support', 'cashier']);
const PAYOUT_KINDS = new Set(['card_to_card', 'b2b', 'bank']);

/**
 * One audit entry as a sentence in plain words, in the reader's language: amounts in currency units,
 * old and new values, bank and business names; never an action code. The sentences live in the
 * catalogues' AuditSentences; the choice of sentence lives here, once for every language.
 */
export function auditSentence(
  e: Pick<AuditEntry, 'action' | 'target' | 'details' | 'subject'>,
  timeZone: string,
  reader: AuditReader = { locale: 'en', calendar: 'gregorian' },
): string {
  const t = createTranslator({ locale: reader.locale, messages: CATALOGUES[reader.locale], namespace: 'AuditSentences' });
  // Names the sentences share with other pages: the calendars, the kinds of messages to cardholders.
  const root = createTranslator({ locale: reader.locale, messages: CATALOGUES[reader.locale] });
  const english = reader.locale === 'en' && reader.calendar === 'gregorian';
  const dates = { ...reader, timeZone };
  const d = e.details ?? {};
  const s = e.subject;
  const target = e.target ?? '';
  const currency = s?.currency ?? text(d.currency);
  const moneyOf = (amount: unknown, cur: string | null | undefined) => {
    const n = num(amount);
    return n !== null && cur ? formatMoney(n, cur, reader.locale) : '';
  };
  const amount = moneyOf(d.amount ?? s?.amount, currency);
  const fee = moneyOf(d.service_fee, currency);
  const withFee = (f: string, minor: unknown) => ((num(minor) ?? 0) > 0 ? t('parts.fee', { fee: f }) : '');
  const role = (r: unknown) => (ROLES.has(String(r)) ? t(`roles.${String(r)}`) : t('roles.other'));
  const noReason = t('parts.noReason');
  const [family, ...rest] = e.action.split('.');
  const verb = rest.join('.');

  const payoutWhere = (x: AuditSubject | null): string => {
    if (!x) return '';
    if (x.isLedgerTopup) return t('where.fromBalance', { card: x.destinationCard ?? '' });
    const from = x.sourceCard ? t('where.fromCard', { card: x.sourceCard }) : '';
    if (x.payoutType === 'card_to_card') return t('where.toCard', { from, card: x.destinationCard ?? '' });
    if (x.payoutType === 'b2b') return t('where.toBusiness', { from, name: x.merchantName ?? t('where.anotherBusiness') });
    return t('where.toBank', { from, bank: bankName(x.bankSlug ?? null), account: x.accountNumber ?? '' });
  };
  const payoutKind = (x: AuditSubject | null, type?: string): string => {
    if (x?.isLedgerTopup) return t('kinds.payout.topup');
    const k = x?.payoutType ?? type ?? '';
    return PAYOUT_KINDS.has(k) ? t(`kinds.payout.${k}`) : t('kinds.payout.other');
  };
  const paymentKind = (x: AuditSubject | null, type?: unknown): string => {
    const k = x?.paymentType ?? text(type);
    if (k === 'hosted') return t('kinds.payment.hosted');
    if (k === 'direct-charge') return x?.paymentMethod ? t('kinds.payment.walletOf', { wallet: bankName(x.paymentMethod) }) : t('kinds.payment.wallet');
    return t('kinds.payment.other');
  };

  switch (family) {
    case 'card': {
      const reason = text(d.reason) ? t('parts.reason', { reason: text(d.reason) ?? '' }) : '';
      const card = target;
      if (verb === 'created') return t('card.created', { card });
      if (verb === 'disabled') return t('card.disabled', { card, reason });
      if (verb === 'enabled') return t('card.enabled', { card });
      if (verb === 'provider_disabled') return t('card.providerDisabled', { card, reason });
      if (verb === 'provider_enabled') return t('card.providerEnabled', { card });
      if (verb === 'redeemed') {
        const receipt = text(d.merchant_reference) ? t('parts.receipt', { receipt: text(d.merchant_reference) ?? '' }) : '';
        return t('card.redeemed', { card, amount, receipt, fee: withFee(moneyOf(d.fee, currency), d.fee), balance: moneyOf(d.balance_after, currency) });
      }
      if (verb === 'cancelled') {
        const moved = moneyOf(d.moved_to_business_account, currency);
        return moved ? t('card.cancelledMoved', { card, moved }) : t('card.cancelled', { card });
      }
      if (verb === 'expiry_extended') {
        const day = (v: unknown) => {
          if (!text(v) || Number.isNaN(Date.parse(String(v)))) return t('parts.unknownDay');
          const at = new Date(String(v));
          return english ? dayIn(timeZone, at) : formatDay(at, dates);
        };
        return t('card.expiryExtended', { card, from: day(d.from), to: day(d.to), reason });
      }
      if (verb === 'phone_corrected') return t('card.phoneCorrected', { card, from: text(d.from) ?? t('parts.unknown'), to: text(d.to) ?? t('parts.unknown') });
      return t('card.changed', { card });
    }
    case 'hold': {
      const args = {
        card: target,
        amount,
        ref: text(d.hold_reference) ? ` ${text(d.hold_reference)}` : '',
        balance: moneyOf(d.balance_after, currency),
      };
      if (verb === 'created') return t('hold.created', args);
      if (verb === 'captured')
        return t('hold.captured', { ...args, captured: moneyOf(d.captured_amount, currency), fee: withFee(moneyOf(d.fee, currency), d.fee) });
      if (verb === 'voided') return t('hold.voided', args);
      if (verb === 'expired') return t('hold.expired', args);
      return t('hold.changed', { card: target, ref: args.ref });
    }
    case 'payout': {
      const ref = target ? ` ${target}` : '';
      if (verb.endsWith('.created')) {
        const status = text(d.status);
        return t('payout.created', {
          kind: payoutKind(s, verb.split('.')[0]),
          ref,
          amount,
          fee: withFee(fee, d.service_fee),
          where: payoutWhere(s),
          outcome: status === 'pending' ? t('payout.waits') : status === 'success' ? t('payout.atOnce') : '',
        });
      }
      const what = t('payout.what', { kind: capital(payoutKind(s)), ref, amount: amount ? t('parts.of', { amount }) : '', where: payoutWhere(s) });
      if (verb === 'success') return t('payout.success', { what });
      if (verb === 'failed') {
        const back = d.refunded_to === 'card' ? t('payout.backToCard') : d.refunded_to === 'business_account' ? t('payout.backToBalance') : '';
        return t('payout.failed', { what, reason: s?.failureReason ?? noReason, back });
      }
      return t('payout.changed', { what });
    }
    case 'transfer':
      return t('transfer', { ref: target ? ` ${target}` : '', amount, card: text(d.card_number) ?? s?.destinationCard ?? '' });
    case 'payment': {
      const card = text(d.card_number) ?? s?.cardNumber ?? '';
      const what = t('payment.what', { kind: capital(paymentKind(s, d.type)), ref: target, amount });
      if (verb === 'created') return t('payment.created', { kind: paymentKind(s, d.type), ref: target, amount, fee: withFee(fee, d.service_fee), card });
      if (verb === 'success') {
        if (d.credited_to !== 'business_account') return t('payment.successCard', { what, card });
        return d.limit_exceeded === 'max_card_balance' ? t('payment.successOverMax', { what, card }) : t('payment.successBalance', { what });
      }
      if (verb === 'failed') return t('payment.failed', { what, reason: s?.failureReason ?? noReason });
      if (verb === 'cancelled') return t('payment.cancelled', { what, reason: s?.failureReason ?? noReason });
      return t('payment.changed', { what });
    }
    case 'business': {
      if (verb === 'credited') return t('business.credited', { amount });
      if (verb === 'settings_changed') {
        const from = (d.from ?? {}) as Record<string, unknown>;
        const to = (d.to ?? {}) as Record<string, unknown>;
        const changes: string[] = [];
        const named = (what: string, v: unknown) => {
          if (what === 'language' && typeof v === 'string') return new Intl.DisplayNames([reader.locale], { type: 'language' }).of(v) ?? v;
          if (what === 'calendar' && (v === 'ethiopic' || v === 'gregorian')) return root(`Calendars.${v}`);
          return String(v);
        };
        const change = (what: 'timeZone' | 'country' | 'language' | 'calendar', key: string) => {
          if (from[key] !== to[key]) changes.push(t(`business.changes.${what}`, { from: named(what, from[key]), to: named(what, to[key]) }));
        };
        change('timeZone', 'time_zone');
        change('country', 'country');
        change('language', 'customer_language');
        change('calendar', 'calendar');
        return changes.length ? t('business.settingsChanged', { changes: changes.join(t('parts.and')) }) : t('business.settingsUnchanged');
      }
      if (verb === 'message_kinds_changed') {
        const off = Array.isArray(d.to) ? (d.to as string[]) : [];
        const kinds = off.map((k) => (root.has(`Settings.messageKinds.${k}`) ? root(`Settings.messageKinds.${k}`) : k));
        return off.length ? t('business.messageKindsOff', { kinds: kinds.join(t('parts.and')) }) : t('business.messageKindsOn');
      }
      if (verb === 'limits_changed') {
        const limit = (v: unknown) => (num(v) === null ? t('parts.none') : moneyOf(v, currency));
        const limits = t('business.limitsChanged', {
          currency: currency ?? '',
          mode: text(d.mode) === 'live' ? t('parts.live') : t('parts.test'),
          maxPayout: limit(d.max_payout),
          daily: limit(d.daily_payout),
          maxBalance: limit(d.max_card_balance),
        });
        // Entries written since the cardholder's code threshold exists name it too.
        return 'spend_code_over' in d ? `${limits} ${t('business.spendCodeOver', { amount: limit(d.spend_code_over) })}` : limits;
      }
      if (verb === 'two_factor_required') return d.required ? t('business.twoFactorRequired') : t('business.twoFactorNotRequired');
      if (verb === 'expiry_policy_changed') {
        const policy = (v: unknown) => {
          const p = (v ?? {}) as Record<string, unknown>;
          const months = num(p.months);
          const kind = p.policy === 'after_issue' || p.policy === 'after_last_load' ? p.policy : 'never';
          return t('business.policy', { policy: kind, months: months ?? -1 });
        };
        return t('business.expiryPolicyChanged', { from: policy(d.from), to: policy(d.to) });
      }
      return t('business.changed');
    }
    case 'api_key': {
      if (verb === 'created') {
        const name = text(d.name);
        const made = name ? t('apiKey.createdNamed', { name, prefix: target }) : t('apiKey.created', { prefix: target });
        // Keys made before scopes existed carry none in their record: they had every scope.
        return Array.isArray(d.scopes) && d.scopes.length < API_KEY_SCOPES.length
          ? t('apiKey.restricted', { made, scopes: d.scopes.join(', ') })
          : t('apiKey.full', { made });
      }
      if (verb === 'renamed') return t('apiKey.renamed', { prefix: target, from: text(d.from) ?? '', to: text(d.to) ?? '' });
      if (verb === 'revoked') return t('apiKey.revoked', { prefix: target });
      return t('apiKey.changed', { prefix: target });
    }
    case 'webhook': {
      if (verb === 'url_set') {
        const from = text(d.from);
        const to = text(d.to) ?? target;
        if (from && from !== to) return t('webhook.urlChanged', { from, to });
        return from === to ? t('webhook.urlSavedAgain', { to }) : t('webhook.urlSet', { to });
      }
      if (verb === 'secret_rotated') return t('webhook.secretRotated', { url: target });
      if (verb === 'secret_revealed') return t('webhook.secretRevealed', { url: target });
      if (verb === 'test_sent') {
        const code = num(d.status_code);
        return d.ok
          ? t('webhook.testDelivered', { url: target, status: code === null ? 'none' : String(code) })
          : t('webhook.testNotDelivered', { url: target });
      }
      if (verb === 'replayed') {
        const outcome = ['in_flight', 'endpoint_disabled', 'no_endpoint'].includes(String(d.outcome)) ? String(d.outcome) : 'queued';
        return t('webhook.replayed', { event: target, outcome });
      }
      if (verb === 'failed_replayed') {
        const [from, to] = target.split('/');
        const n = num(d.deliveries) ?? 0;
        const period =
          from && to && !Number.isNaN(Date.parse(from))
            ? t('webhook.period', { from: formatDayTime(new Date(from), dates), to: formatDayTime(new Date(to), dates) })
            : '';
        return t('webhook.failedReplayed', { period, count: n });
      }
      return t('webhook.changed');
    }
    case 'user': {
      const who = target;
      if (verb === 'added') return t('user.added', { who, role: role(d.role) });
      if (verb === 'removed') return t('user.removed', { who, role: role(d.role) });
      if (verb === 'role_changed') return t('user.roleChanged', { who, from: role(d.from), to: role(d.to) });
      const branch = text(d.location);
      if (verb === 'invited') return branch ? t('user.invitedAt', { who, role: role(d.role), branch }) : t('user.invited', { who, role: role(d.role) });
      if (verb === 'invitation_revoked') return t('user.invitationRevoked', { who, role: role(d.role) });
      if (verb === 'joined') return branch ? t('user.joinedAt', { who, role: role(d.role), branch }) : t('user.joined', { who, role: role(d.role) });
      if (verb === 'location_changed') return branch ? t('user.locationChanged', { who, branch }) : t('user.locationCleared', { who });
      if (verb === 'reset_link_created') return t('user.resetLinkCreated', { who });
      if (verb === 'password_reset') return t('user.passwordReset', { who });
      if (verb === 'password_changed') return t('user.passwordChanged', { who });
      if (verb === 'two_factor_enabled') return t('user.twoFactorEnabled', { who });
      if (verb === 'two_factor_disabled') return t('user.twoFactorDisabled', { who, proof: d.proof === 'code' || d.proof === 'password' ? d.proof : 'none' });
      if (verb === 'recovery_code_used') {
        const left = num(d.codes_left);
        return left === null ? t('user.recoveryCodeUsed', { who }) : t('user.recoveryCodeUsedLeft', { who, left });
      }
      return t('user.changed', { who });
    }
    case 'approval': {
      if (verb === 'threshold_set') {
        const limit = moneyOf(d.amount, text(d.currency));
        const cur = text(d.currency) ?? '';
        return limit ? t('approval.thresholdSet', { currency: cur, limit }) : t('approval.thresholdRemoved', { currency: cur });
      }
      const card = target;
      const what =
        d.kind === 'adjustment'
          ? d.direction === 'decrease'
            ? t('approval.what.adjustmentTaking', { amount, card })
            : t('approval.what.adjustmentAdding', { amount, card })
          : d.kind === 'refund'
            ? t('approval.what.refund', { amount, card })
            : d.kind === 'upload'
              ? t('approval.what.upload', { upload: target })
              : t('approval.what.payout', { amount, card });
      const note = text(d.note) ? t('parts.note', { note: text(d.note) ?? '' }) : '';
      const kind = d.kind === 'adjustment' ? 'adjustment' : 'other';
      const said: Record<string, () => string> = {
        requested: () => t('approval.requested', { kind, what }),
        approved: () => t('approval.approved', { what, result: text(d.result_reference) ? ` (${text(d.result_reference)})` : '' }),
        rejected: () => t('approval.rejected', { what }),
        withdrawn: () => t('approval.withdrawn', { what }),
        expired: () => t('approval.expired', { what }),
        failed: () => t('approval.failed', { what, reason: text(d.reason) ?? t('parts.noReasonGiven') }),
      };
      return (said[verb]?.() ?? t('approval.changed', { what })) + note;
    }
    case 'upload': {
      const args = { kind: d.kind === 'payouts' ? 'payouts' : 'cards', upload: target };
      const said: Record<string, () => string> = {
        started: () => t('upload.started', args),
        awaiting_approval: () => t('upload.awaitingApproval', args),
        approved: () => t('upload.approved', args),
        rejected: () => t('upload.rejected', args),
        cancelled: () => t('upload.cancelled', args),
        expired: () => t('upload.expired', args),
      };
      return said[verb]?.() ?? t('upload.changed', args);
    }
    case 'demo':
      return t('demo');
    default:
      return target ? t('other', { target }) : t('otherNoTarget');
  }
}
