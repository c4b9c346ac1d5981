import { sql } from 'drizzle-orm';
import { type ApiKeyScope, CURRENCIES, MODES } from '../validation';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const money = (name: string) => bigint(name, { mode: 'number' });
const id64 = (name: string) => bigint(name, { mode: 'number' });
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const businesses = pgTable(
  'businesses',
  {
    id: serial('id').primaryKey(),
    merchantId: text('merchant_id').notNull().unique(),
    name: text('name').notNull(),
    /** IANA zone the dashboard shows and filters dates in. */
    timeZone: text('time_zone').notNull().default('Africa/Addis_Ababa'),
    /** ISO 3166 alpha-2: national phone numbers typed in the dashboard are read as this country's. */
    country: text('country').notNull().default('ET'),
    /** The owner's choice: every user must turn on two-factor sign-in before using the dashboard. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /** When cards expire (lib/cards/card-expiry.ts): never, or expiry_months after issue or after the last load. */
    expiryPolicy: text('expiry_policy', { enum: ['never', 'after_issue', 'after_last_load'] })
      .notNull()
      .default('never'),
    expiryMonths: integer('expiry_months'),
    /** The language its hosted checkout speaks to customers (?lang overrides it per visit). */
    customerLanguage: text('customer_language', { enum: ['en', 'am'] })
      .notNull()
      .default('en'),
    /** The calendar its customers read dates in. */
    calendar: text('calendar', { enum: ['gregorian', 'ethiopic'] })
      .notNull()
      .default('gregorian'),
    /** The kinds of cardholder message (lib/messages/message-kinds.ts) the owner turned off; every kind is on until then. */
    messageKindsOff: text('message_kinds_off').array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
  },
  // The dashboard search finds another business by any part of its name (pg_trgm). Its GIN indexes are
  // written through (fastupdate off): a pending list would be read in full by every search until vacuumed.
  (t) => [
    index('businesses_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`).with({ fastupdate: false }),
    check(
      'businesses_expiry_policy_check',
      sql`(${t.expiryPolicy} = 'never' AND ${t.expiryMonths} IS NULL) OR (${t.expiryPolicy} IN ('after_issue', 'after_last_load') AND ${t.expiryMonths} BETWEEN 1 AND 120)`,
    ),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** What the business calls the key ("Shop backend"), so a leaked or unused key can be told apart. */
    name: text('name').notNull().default(''),
    prefix: text('prefix').notNull(),
    /** The secret's last four characters; null for keys made before they were kept. */
    lastFour: text('last_four'),
    active: boolean('active').notNull().default(true),
    giftCardsEnabled: boolean('gift_cards_enabled').notNull().default(true),
    /** What the key may do (lib/keys/key-scopes.ts); set when the key is made and never changed. */
    scopes: text('scopes').array().$type<ApiKeyScope[]>().notNull().default(sql`ARRAY['read','cards','payments','payouts']::text[]`),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
    /** Written at most once a minute per key (lib/keys/key-last-used.ts), never per request. */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    index('api_keys_business_idx').on(t.businessId, t.mode),
    check('api_keys_scopes_check', sql`cardinality(${t.scopes}) > 0 AND ${t.scopes} <@ ARRAY['read','cards','payments','payouts']::text[]`),
  ],
);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  businessId: integer('business_id')
    .notNull()
    .references(() => businesses.id),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  role: text('role').notNull(),
  createdAt: createdAt(),
  lastSignInAt: ts('last_sign_in_at'),
  /** Base32 TOTP secret: set when set-up starts, in use once totp_enabled_at is set. */
  totpSecret: text('totp_secret'),
  totpEnabledAt: ts('totp_enabled_at'),
  /** The last 30-second step a code was accepted for: a code of that step or an earlier one is refused, so none works twice. */
  totpLastStep: bigint('totp_last_step', { mode: 'number' }),
  /** Copied into the session token at sign-in; bumped when the password or two-factor changes, so older sessions end. */
  sessionVersion: integer('session_version').notNull().default(0),
  /** Wrong second factors (and wrong current passwords on the account page) in a row; a right one clears them. */
  totpFailures: integer('totp_failures').notNull().default(0),
  totpLockedUntil: ts('totp_locked_until'),
  /** The language the person chose in Account; null follows their browser's Accept-Language. */
  language: text('language', { enum: ['en', 'am'] }),
  /** The calendar the person reads dates in. */
  calendar: text('calendar', { enum: ['gregorian', 'ethiopic'] })
    .notNull()
    .default('gregorian'),
  /** The branch the teammate works at (migration 0041): a cashier's redemptions and holds are recorded there. */
  locationId: integer('location_id'),
});

/** One-time recovery codes for two-factor sign-in, kept as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/** An owner's invitation to join the business; the link's token is kept only as its SHA-256 hash. */
export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The owner who invited; no foreign key, so removing them keeps the record. */
    invitedBy: integer('invited_by').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    /** The branch the teammate will be tied to (migration 0045); null: none. */
    locationId: integer('location_id'),
  },
  (t) => [index('invitations_business_idx').on(t.businessId, t.createdAt.desc())],
);

/** A single-use link an owner makes for a teammate to choose a new password; token kept as its SHA-256 hash. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: integer('created_by').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    // The service-wide identity of a phone, per mode: it decides "new to the service"; names live in customer_names.
    mode: text('mode').notNull(),
    phoneNumber: text('phone_number').notNull(),
    nationalNumber: text('national_number').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('customers_national_idx').on(t.nationalNumber), uniqueIndex('customers_phone_mode_idx').on(t.phoneNumber, t.mode)],
);

// A customer's name as one business gave it: no business ever reads another's.
// The customer row is per mode, so each row here is too.
export const customerNames = pgTable(
  'customer_names',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.customerId] }),
    // The dashboard search finds a holder by any part of the name this business gave (lib/search/search-everything.ts).
    index('customer_names_name_trgm_idx')
      .using('gin', sql`lower(coalesce(${t.firstName}, '') || ' ' || coalesce(${t.lastName}, '')) gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    businessId: integer('business_id').references(() => businesses.id),
    mode: text('mode').notNull(),
    currency: text('currency').notNull(),
    name: text('name').notNull(),
    balance: money('balance').notNull().default(0),
    allowNegative: boolean('allow_negative').notNull().default(false),
    /** Set when the card owning the account is cancelled: a closed account never moves again. */
    closedAt: ts('closed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('ledger_accounts_no_overdraft', sql`${t.allowNegative} OR ${t.balance} >= 0`),
    check('ledger_accounts_safe_integer', sql`abs(${t.balance}) <= 9007199254740991`),
    uniqueIndex('ledger_accounts_name_idx').on(t.mode, t.currency, t.name),
  ],
);

export const cards = pgTable(
  'cards',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    refId: text('ref_id').notNull().unique(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id),
    cardNumber: text('card_number').notNull().unique(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    status: smallint('status').notNull().default(1),
    disabledBy: text('disabled_by'),
    accountId: id64('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    cancelledAt: ts('cancelled_at'),
    /** The last millisecond of the card's last local day (lib/cards/card-expiry.ts); null when it never expires. */
    expiresAt: ts('expires_at'),
    /** Set by the expiry sweep, with the balance moved to breakage: the card is then read-only. */
    expiredAt: ts('expired_at'),
    /** The cardholder gets the business's messages (issued with notify, or shared by SMS or email). */
    messagesOn: boolean('messages_on').notNull().default(false),
  },
  (t) => [
    // The expiry sweep and the dashboard's "expiring soon" list read the cards still to expire by date.
    index('cards_expiry_due_idx').on(t.expiresAt).where(sql`${t.expiresAt} IS NOT NULL AND ${t.expiredAt} IS NULL AND ${t.cancelledAt} IS NULL`),
    // The card limits (lib/limits/) find the card behind a credited ledger account.
    uniqueIndex('cards_account_idx').on(t.accountId),
    uniqueIndex('cards_one_per_customer_idx').on(t.businessId, t.mode, t.customerId, t.currency).where(sql`${t.cancelledAt} IS NULL`),
    index('cards_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(sql`${t.cancelledAt} IS NULL`),
    // Disabled cards are few: the dashboard's "disabled" filter reads this small index instead of walking the whole list.
    index('cards_disabled_list_idx')
      .on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.cancelledAt} IS NULL AND ${t.status} <> 1`),
    index('cards_customer_idx').on(t.customerId),
    // Search: "my card ending 8420", cancelled cards included; and the list of cancelled cards.
    index('cards_last_four_idx').on(t.businessId, t.mode, sql`right(${t.cardNumber}, 4)`),
    index('cards_cancelled_list_idx')
      .on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.cancelledAt} IS NOT NULL`),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mode: text('mode').notNull(),
    kind: text('kind').notNull(),
    businessId: integer('business_id'),
    reference: text('reference'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    reversesId: id64('reverses_id'),
    createdAt: createdAt(),
    /** The branch a redemption happened at (migration 0041); null when none was named. */
    locationId: integer('location_id'),
  },
  (t) => [index('ledger_transactions_reference_idx').on(t.reference)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: id64('transaction_id')
      .notNull()
      .references(() => ledgerTransactions.id),
    accountId: id64('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    currency: text('currency').notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    index('ledger_entries_transaction_idx').on(t.transactionId),
    check('ledger_entries_nonzero', sql`${t.amount} <> 0`),
  ],
);

// Exact list totals without a COUNT over the whole table: a few shard rows per
// (business, mode, kind) so concurrent writers rarely wait on the same row.
export const listCounters = pgTable(
  'list_counters',
  {
    businessId: integer('business_id').notNull(),
    mode: text('mode').notNull(),
    kind: text('kind').notNull(),
    shard: smallint('shard').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.mode, t.kind, t.shard] })],
);

// The dashboard's list totals (count, amount, fee, net per currency) without a SUM over every row:
// triggers on payouts and payments (migration 0014) keep one row per UTC hour, day and month
// bucket and per shard, so concurrent writers rarely wait on one row (lib/dashboard/history-totals.ts).
export const historyTotals = pgTable(
  'history_totals',
  {
    businessId: integer('business_id').notNull(),
    mode: text('mode').notNull(),
    /** payouts or payments. */
    list: text('list').notNull(),
    /** hour, day or month: the bucket's length, starting at a UTC boundary. */
    grain: text('grain').notNull(),
    bucket: ts('bucket').notNull(),
    /** The list's type filter: a payout type or topup, a payment type. */
    type: text('type').notNull(),
    status: text('status').notNull(),
    currency: text('currency').notNull(),
    shard: smallint('shard').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    amount: money('amount').notNull().default(0),
    fee: money('fee').notNull().default(0),
    net: money('net').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'history_totals_pk', columns: [t.businessId, t.mode, t.list, t.grain, t.bucket, t.type, t.status, t.currency, t.shard] })],
);

/**
 * How far each list's rows are folded into history_totals: rows with a
 * greater id are summed from the list itself until the next fold
 * (lib/dashboard/history-totals-fold.ts).
 */
export const historyFolds = pgTable('history_folds', {
  /** payouts or payments. */
  list: text('list').primaryKey(),
  foldedThrough: bigint('folded_through', { mode: 'number' }).notNull(),
});

export const feeRules = pgTable(
  'fee_rules',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode').notNull(),
    appliesTo: text('applies_to').notNull(),
    // percent with four decimal places, as an integer: 1.5% is 15000
    percentScaled: bigint('percent_scaled', { mode: 'number' }).notNull().default(0),
    fixed: money('fixed').notNull().default(0),
    min: money('min'),
    max: money('max'),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.mode, t.appliesTo] })],
);

/** What the payouts search reads for text, as payouts_search_trgm_idx indexes it: a query must use this exact expression. */
export const payoutSearchText = sql.raw(`lower(reference || ' ' || coalesce(account_name, ''))`);
/** The card and account numbers a payout touched, as payouts_numbers_idx indexes them: a query must use this exact expression. */
export const payoutNumbers = sql.raw('ARRAY[source_card_number, destination_card_number, account_number]');

export const payouts = pgTable(
  'payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    payoutType: text('payout_type', { enum: ['card_to_card', 'bank', 'b2b'] }).notNull(),
    status: text('status', { enum: ['pending', 'success', 'failed'] }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: money('amount').notNull(),
    serviceFee: money('service_fee').notNull().default(0),
    chargePayer: text('charge_payer').notNull(),
    reference: text('reference').notNull().unique(),
    sourceCardId: id64('source_card_id'),
    sourceCardNumber: text('source_card_number'),
    destinationCardNumber: text('destination_card_number'),
    merchantId: text('merchant_id'),
    bankSlug: text('bank_slug'),
    accountNumber: text('account_number'),
    accountName: text('account_name'),
    isLedgerTopup: boolean('is_ledger_topup').notNull().default(false),
    transactionId: id64('transaction_id'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
    settleAfter: ts('settle_after'),
    /** Why a failed payout failed, in words for the business's staff. */
    failureReason: text('failure_reason'),
  },
  (t) => [
    index('payouts_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('payouts_pending_idx').on(t.settleAfter).where(sql`${t.status} = 'pending'`),
    // The dashboard's sort by amount, paged by keyset on (amount, id).
    index('payouts_amount_idx').on(t.businessId, t.mode, t.amount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // The payouts list's search (lib/search/search-everything.ts): any part of the reference or account name, and a card or
    // account number exactly. Every payout writes them, so they keep a small pending list (fastupdate) instead of writing
    // through like the other trigram indexes.
    index('payouts_search_trgm_idx').using('gin', sql`(${payoutSearchText}) gin_trgm_ops`).with({ gin_pending_list_limit: 256 }),
    index('payouts_numbers_idx').using('gin', sql`(${payoutNumbers})`).with({ gin_pending_list_limit: 256 }),
  ],
);

/** Payout requests to a provider (migration 0022): written with the debit, sent once per reference by a `rail_request` job. */
export const railRequests = pgTable(
  'rail_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payoutId: id64('payout_id')
      .notNull()
      .references(() => payouts.id),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    provider: text('provider').notNull(),
    reference: text('reference').notNull(),
    bankCode: text('bank_code').notNull(),
    /** What the destination receives, in minor units: the amount the transfer asks for and approval checks. */
    amount: money('amount').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    state: text('state', { enum: ['queued', 'sending', 'sent', 'done'] })
      .notNull()
      .default('queued'),
    sentAt: ts('sent_at'),
    /** Chapa's own id for the transfer, from its answer or verify. */
    providerReference: text('provider_reference'),
    /** What verify last said of the transfer, in Chapa's word. */
    providerStatus: text('provider_status'),
    verifiedAt: ts('verified_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('rail_requests_reference_idx').on(t.reference),
    uniqueIndex('rail_requests_payout_idx').on(t.payoutId),
    // The reconciliation's provider column reads one business's requests of a range.
    index('rail_requests_business_idx').on(t.businessId, t.mode, t.createdAt),
    check('rail_requests_state_check', sql`${t.state} IN ('queued', 'sending', 'sent', 'done')`),
  ],
);

/**
 * The one queue of work after a commit (migration 0037, lib/jobs/): written in the transaction of the money it
 * follows, claimed under a lease, retried on the capped backoff, dead after max_attempts for a person to see.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    /** What the job acts on: the reference of its row (a rail request's, a refund's). */
    subject: text('subject').notNull(),
    businessId: integer('business_id').references(() => businesses.id),
    mode: text('mode', { enum: MODES }),
    payload: jsonb('payload').notNull().default({}),
    state: text('state', { enum: ['pending', 'done', 'dead'] })
      .notNull()
      .default('pending'),
    runAt: ts('run_at').notNull().defaultNow(),
    /** The lease of the worker that claimed it; past it, another may claim the job. */
    lockedUntil: ts('locked_until'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_subject_idx').on(t.kind, t.subject),
    index('jobs_due_idx').on(t.kind, t.runAt).where(sql`${t.state} = 'pending'`),
    index('jobs_dead_idx').on(t.kind, t.updatedAt).where(sql`${t.state} = 'dead'`),
    check('jobs_state_check', sql`${t.state} IN ('pending', 'done', 'dead')`),
    check('jobs_max_attempts_positive', sql`${t.maxAttempts} > 0`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    type: text('type').notNull(),
    status: text('status').notNull(),
    linkReference: text('link_reference').notNull().unique(),
    merchantReference: text('merchant_reference'),
    providerReference: text('provider_reference'),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: money('amount').notNull(),
    serviceFee: money('service_fee').notNull().default(0),
    paymentMethod: text('payment_method'),
    phoneNumber: text('phone_number'),
    /** A shop order's payment has no card until it is paid (migration 0042): the card is found or issued then. */
    cardId: id64('card_id'),
    cardNumber: text('card_number'),
    transactionId: id64('transaction_id'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
    settleAfter: ts('settle_after'),
    /** Why a failed payment failed, in words for the business's staff. */
    failureReason: text('failure_reason'),
    /** Live (Chapa): the provider's hosted page our checkout page sends the customer on to. */
    providerCheckoutUrl: text('provider_checkout_url'),
    /** Live direct charge: what the customer must do next (`ussd`: approve on the phone; `otp`: give the code). */
    providerNextAction: text('provider_next_action'),
    /** Live direct charge: the token Chapa wants back with the OTP. */
    providerRequestId: text('provider_request_id'),
    /** Live: what Chapa's verify last said (lib/payments/verify-live-payment.ts), and when to ask again. */
    verifyState: text('verify_state'),
    verifyNote: text('verify_note'),
    verifiedAt: ts('verified_at'),
    nextVerifyAt: ts('next_verify_at'),
    verifyAttempts: integer('verify_attempts').notNull().default(0),
    /** Live: the latest slot a public trigger (callback, checkout return) took; they are spaced PUBLIC_VERIFY_GAP_MS apart. */
    verifyRequestedAt: ts('verify_requested_at'),
    /** What refunds have taken back so far (migration 0025); a failed refund gives its amount back. */
    refundedAmount: money('refunded_amount').notNull().default(0),
  },
  (t) => [
    check('payments_refunded_within_amount', sql`${t.refundedAmount} >= 0 AND ${t.refundedAmount} <= ${t.amount}`),
    uniqueIndex('payments_merchant_reference_idx').on(t.businessId, t.mode, t.merchantReference).where(sql`${t.merchantReference} IS NOT NULL`),
    index('payments_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('payments_pending_idx').on(t.settleAfter).where(sql`${t.status} = 'pending'`),
    index('payments_amount_idx').on(t.businessId, t.mode, t.amount.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A card's story pages through its payment links newest first.
    index('payments_card_idx').on(t.cardId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // Search: "order 1005" finds ORD-1005 (any part, any case), and the provider's reference exactly.
    index('payments_merchant_reference_trgm_idx')
      .using('gin', sql`lower(${t.merchantReference}) gin_trgm_ops`)
      .with({ fastupdate: false })
      .where(sql`${t.merchantReference} IS NOT NULL`),
    index('payments_provider_reference_idx').on(t.providerReference).where(sql`${t.providerReference} IS NOT NULL`),
    index('payments_next_verify_idx').on(t.nextVerifyAt).where(sql`${t.status} = 'pending' AND ${t.nextVerifyAt} IS NOT NULL`),
  ],
);

/**
 * Refunds of paid top-ups (migration 0025). A live refund's row is also its
 * request to the rail: `request_state` goes queued, sending, sent, done.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    paymentId: id64('payment_id')
      .notNull()
      .references(() => payments.id),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: money('amount').notNull(),
    /** The payer's fee given back with it (a shop order that could not be fulfilled), from the fee revenue that took it (migration 0044). */
    serviceFee: money('service_fee').notNull().default(0),
    reason: text('reason'),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    /** Where the payer is repaid: the sandbox or a live provider. */
    rail: text('rail').notNull(),
    transactionId: id64('transaction_id').notNull(),
    reversalTransactionId: id64('reversal_transaction_id'),
    failureReason: text('failure_reason'),
    requestState: text('request_state', { enum: ['queued', 'sending', 'sent', 'done'] })
      .notNull()
      .default('done'),
    sentAt: ts('sent_at'),
    providerReference: text('provider_reference'),
    lastError: text('last_error'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    uniqueIndex('refunds_reference_idx').on(t.reference),
    index('refunds_payment_idx').on(t.paymentId, t.createdAt),
    index('refunds_business_idx').on(t.businessId, t.mode, t.createdAt),
    check('refunds_amount_positive', sql`${t.amount} > 0`),
    check('refunds_status_check', sql`${t.status} IN ('pending', 'succeeded', 'failed')`),
    check('refunds_request_state_check', sql`${t.requestState} IN ('queued', 'sending', 'sent', 'done')`),
  ],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: integer('api_key_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    /** What the run's committed transaction returned, so an answer lost to a crash can be rebuilt (state 'committed'). */
    committedResult: jsonb('committed_result'),
    createdAt: createdAt(),
    /** When the run last committed: it is taken for dead only a minute after that (and after its claim). */
    lastCommittedAt: ts('last_committed_at'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: serial('id').primaryKey(),
    publicId: text('public_id').notNull().unique(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode').notNull(),
    kind: text('kind').notNull(),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: ts('previous_secret_expires_at'),
    disabledAt: ts('disabled_at'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('webhook_endpoints_one_per_kind_idx').on(t.businessId, t.mode, t.kind)],
);

export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull().unique(),
    businessId: integer('business_id').notNull(),
    mode: text('mode').notNull(),
    type: text('type').notNull(),
    // The exact bytes sent: jsonb would lose SPEC.md's key order.
    body: text('body').notNull(),
    subjectReference: text('subject_reference').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_events_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: id64('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_pending_idx').on(t.endpointId, t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: id64('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attemptedAt: createdAt(),
    // These columns are what the business may see; an attempt to a non-public address keeps its real outcome in private_detail.
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    privateDetail: jsonb('private_detail'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);

export const receivedWebhooks = pgTable('received_webhooks', {
  webhookId: text('webhook_id').primaryKey(),
  endpointId: integer('endpoint_id').notNull(),
  receivedAt: createdAt(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: integer('business_id'),
    mode: text('mode'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    target: text('target'),
    details: jsonb('details'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_business_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst()),
    // A card's story reads its disable, enable and cancel entries by target.
    index('audit_log_target_idx').on(t.businessId, t.mode, t.target, t.createdAt.desc().nullsFirst()),
  ],
);

/** The owner's or the back office's limits per business, mode and currency (lib/limits/); null is no limit. Minor units. */
export const businessLimits = pgTable(
  'business_limits',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode').notNull(),
    currency: text('currency').notNull(),
    maxPayout: money('max_payout'),
    dailyPayout: money('daily_payout'),
    maxCardBalance: money('max_card_balance'),
    /** Redemptions and captures of more than this need the cardholder's SMS code (lib/spend-codes/); null: never. */
    spendCodeOver: money('spend_code_over'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'business_limits_pk', columns: [t.businessId, t.mode, t.currency] }),
    check('business_limits_positive', sql`coalesce(${t.maxPayout}, 1) > 0 AND coalesce(${t.dailyPayout}, 1) > 0 AND coalesce(${t.maxCardBalance}, 1) > 0`),
    check('business_limits_spend_code_over_check', sql`${t.spendCodeOver} IS NULL OR ${t.spendCodeOver} >= 0`),
  ],
);

/** What a business paid out from its cards on one business day (its time zone), kept while it has a daily payout limit. */
export const payoutDayTotals = pgTable(
  'payout_day_totals',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode').notNull(),
    currency: text('currency').notNull(),
    day: date('day').notNull(),
    total: money('total').notNull(),
  },
  (t) => [primaryKey({ name: 'payout_day_totals_pk', columns: [t.businessId, t.mode, t.currency, t.day] })],
);

/** Money set aside on the ledger (lib/holds/, migration 0026): posted to the business's held account until released. */
export const holds = pgTable(
  'holds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    sourceAccountId: id64('source_account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    cardId: id64('card_id').references(() => cards.id),
    amount: money('amount').notNull(),
    purpose: text('purpose').notNull(),
    status: text('status', { enum: ['open', 'released'] })
      .notNull()
      .default('open'),
    holdTransactionId: id64('hold_transaction_id').notNull(),
    releaseTransactionId: id64('release_transaction_id'),
    createdAt: createdAt(),
    releasedAt: ts('released_at'),
    /** Who placed it (migration 0030): an approval request, or a till through the API (lib/holds/till/). */
    kind: text('kind', { enum: ['approval', 'till'] })
      .notNull()
      .default('approval'),
    /** A till hold's public hold_reference. */
    reference: text('reference'),
    merchantReference: text('merchant_reference'),
    expiresAt: ts('expires_at'),
    /** How a released till hold ended; status stays the ledger's view (open while the money is held). */
    outcome: text('outcome', { enum: ['captured', 'voided', 'expired'] }),
    capturedAmount: money('captured_amount'),
    captureFee: money('capture_fee'),
    captureTransactionId: id64('capture_transaction_id'),
    /** The branch a till hold was placed at (migration 0041). */
    locationId: integer('location_id'),
  },
  (t) => [
    index('holds_open_by_card_idx').on(t.cardId).where(sql`${t.status} = 'open'`),
    uniqueIndex('holds_reference_idx').on(t.reference),
    index('holds_till_by_card_idx').on(t.cardId, t.createdAt.desc(), t.id.desc()).where(sql`${t.kind} = 'till'`),
    index('holds_till_due_idx').on(t.expiresAt).where(sql`${t.kind} = 'till' AND ${t.status} = 'open'`),
    check('holds_status_check', sql`${t.status} IN ('open', 'released')`),
    check('holds_amount_positive', sql`${t.amount} > 0`),
    check('holds_kind_check', sql`${t.kind} IN ('approval', 'till')`),
    check('holds_outcome_check', sql`${t.outcome} IN ('captured', 'voided', 'expired')`),
    check('holds_till_shape', sql`${t.kind} <> 'till' OR (${t.reference} IS NOT NULL AND ${t.expiresAt} IS NOT NULL AND ${t.cardId} IS NOT NULL)`),
  ],
);

/** Second-person approval of dashboard payouts and manual adjustments (lib/approvals/, migration 0026). */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    kind: text('kind').notNull(),
    /** Null for an upload in several currencies (its holds say each card's). */
    currency: text('currency', { enum: CURRENCIES }),
    amount: money('amount').notNull(),
    /** Null for a payout upload (migration 0036): its money is held on each source card, by holds whose purpose is the reference. */
    cardId: id64('card_id').references(() => cards.id),
    cardNumber: text('card_number'),
    /** The typed options of the operation to run on approval. */
    options: jsonb('options').notNull(),
    makerUserId: integer('maker_user_id').notNull(),
    reasonCode: text('reason_code'),
    note: text('note'),
    status: text('status', { enum: ['awaiting_approval', 'approved', 'rejected', 'expired', 'failed'] })
      .notNull()
      .default('awaiting_approval'),
    decidedBy: integer('decided_by'),
    decidedAt: ts('decided_at'),
    decisionNote: text('decision_note'),
    failureReason: text('failure_reason'),
    expiresAt: ts('expires_at').notNull(),
    resultReference: text('result_reference'),
    holdId: id64('hold_id').references(() => holds.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('approval_requests_reference_idx').on(t.reference),
    index('approval_requests_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('approval_requests_due_idx').on(t.expiresAt).where(sql`${t.status} = 'awaiting_approval'`),
    check('approval_requests_status_check', sql`${t.status} IN ('awaiting_approval', 'approved', 'rejected', 'expired', 'failed')`),
  ],
);

/** The owner's approval threshold per business, mode and currency (none: dashboard payouts need no approval). */
export const approvalThresholds = pgTable(
  'approval_thresholds',
  {
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: money('amount').notNull(),
    updatedBy: integer('updated_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.mode, t.currency] }), check('approval_thresholds_amount_positive', sql`${t.amount} > 0`)],
);

/** Token buckets every instance takes from (lib/rate-limits/shared-buckets.ts); unlogged in the migration. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  /** How many the last take got: the statement's answer. */
  taken: integer('taken').notNull(),
  refilledAt: ts('refilled_at').notNull().defaultNow(),
});

/** Wrong sign-ins per email and client address, shared by every instance (lib/auth/sign-in-limits.ts); unlogged. */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    pairKey: text('pair_key').primaryKey(),
    failures: integer('failures').notNull(),
    lastAt: ts('last_at').notNull(),
  },
  (t) => [index('sign_in_failures_last_idx').on(t.lastAt)],
);

/** One row per open live stream of any instance, kept alive by its instance's heartbeat (lib/webhooks/live-stream-limits.ts); unlogged. */
export const liveStreams = pgTable(
  'live_streams',
  {
    id: uuid('id').primaryKey(),
    sessionKey: text('session_key').notNull(),
    address: text('address').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    index('live_streams_session_idx').on(t.sessionKey),
    index('live_streams_address_idx').on(t.address),
    index('live_streams_expires_idx').on(t.expiresAt),
  ],
);

export const UPLOAD_KINDS = ['cards', 'payouts'] as const;
export const UPLOAD_JOB_STATUSES = ['previewed', 'awaiting_approval', 'running', 'done', 'cancelled', 'expired'] as const;
export const UPLOAD_ROW_STATUSES = ['invalid', 'pending', 'succeeded', 'failed', 'cancelled'] as const;

/** A dashboard CSV upload (lib/uploads/): checked at preview, then run row by row by the upload runner. */
export const uploadJobs = pgTable(
  'upload_jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull().unique(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    kind: text('kind', { enum: UPLOAD_KINDS }).notNull(),
    fileName: text('file_name').notNull(),
    createdBy: integer('created_by').notNull(),
    status: text('status', { enum: UPLOAD_JOB_STATUSES }).notNull().default('previewed'),
    rowCount: integer('row_count').notNull(),
    invalidCount: integer('invalid_count').notNull(),
    /** Per currency: rows, amount and fee of the valid rows, in minor units. */
    totals: jsonb('totals').notNull(),
    decidedBy: integer('decided_by'),
    createdAt: createdAt(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    /** While awaiting approval: when it expires unless decided (APPROVAL_TTL_MS after it started waiting). */
    expiresAt: ts('expires_at'),
    /** While awaiting approval and after: the approval request (lib/approvals) that holds its money and is decided (migration 0036). */
    approvalReference: text('approval_reference'),
  },
  (t) => [
    index('upload_jobs_business_idx').on(t.businessId, t.mode, t.kind, t.id),
    index('upload_jobs_running_idx').on(t.id).where(sql`${t.status} = 'running'`),
    index('upload_jobs_waiting_idx').on(t.expiresAt).where(sql`${t.status} = 'awaiting_approval'`),
    check('upload_jobs_kind_check', sql`${t.kind} IN ('cards', 'payouts')`),
    check('upload_jobs_status_check', sql`${t.status} IN ('previewed', 'awaiting_approval', 'running', 'done', 'cancelled', 'expired')`),
  ],
);

/** One line of an upload: its input as checked at preview, and its outcome once run. */
export const uploadRows = pgTable(
  'upload_rows',
  {
    jobId: id64('job_id')
      .notNull()
      .references(() => uploadJobs.id, { onDelete: 'cascade' }),
    rowNumber: integer('row_number').notNull(),
    input: jsonb('input').notNull(),
    currency: text('currency', { enum: CURRENCIES }),
    amount: money('amount'),
    fee: money('fee'),
    status: text('status', { enum: UPLOAD_ROW_STATUSES }).notNull(),
    /** The runner's claim: only the holder of the current claim can commit the row's effect. */
    claim: uuid('claim'),
    claimedAt: ts('claimed_at'),
    attempts: integer('attempts').notNull().default(0),
    resultReference: text('result_reference'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    primaryKey({ name: 'upload_rows_pk', columns: [t.jobId, t.rowNumber] }),
    index('upload_rows_pending_idx').on(t.jobId, t.rowNumber).where(sql`${t.status} = 'pending'`),
    check('upload_rows_status_check', sql`${t.status} IN ('invalid', 'pending', 'succeeded', 'failed', 'cancelled')`),
  ],
);

/**
 * A cardholder's link to their card page (`/c/{token}`). Only the token's SHA-256 is kept; a link ends when a
 * newer one is made for the card, and reads nothing once the card is cancelled or expired.
 */
export const cardLinks = pgTable(
  'card_links',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    cardId: id64('card_id')
      .notNull()
      .references(() => cards.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('card_links_token_idx').on(t.tokenHash),
    // At most one live link per card: a new link ends the old one in the same transaction.
    uniqueIndex('card_links_live_idx').on(t.cardId).where(sql`${t.endedAt} IS NULL`),
  ],
);

/**
 * A message to a cardholder (lib/messages/): written with what it announces, its text filled in and sent by the
 * `cardholder_message` job. Test mode only records it. Only the hash of its delivery callback's token is kept.
 */
export const cardholderMessages = pgTable(
  'cardholder_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    /** The card it is about; none for a shop order's receipt to its buyer (migration 0044). */
    cardId: id64('card_id').references(() => cards.id),
    /** The shop order it is about: the recipient's gift and the buyer's receipt. */
    orderId: id64('order_id').references((): AnyPgColumn => shopOrders.id),
    kind: text('kind').notNull(),
    channel: text('channel').notNull(),
    toAddress: text('to_address').notNull(),
    facts: jsonb('facts').notNull().default(sql`'{}'::jsonb`),
    text: text('text'),
    status: text('status').notNull().default('queued'),
    error: text('error'),
    providerMessageId: text('provider_message_id'),
    callbackHash: text('callback_hash'),
    /** A send was started and its answer not yet recorded: seen again, that send may have arrived. */
    inFlight: boolean('in_flight').notNull().default(false),
    /** Sends whose outcome is unknown (a timeout, a crash mid-send): past one, never sent again. */
    uncertainSends: integer('uncertain_sends').notNull().default(0),
    sends: integer('sends').notNull().default(0),
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    uniqueIndex('cardholder_messages_reference_idx').on(t.reference),
    uniqueIndex('cardholder_messages_callback_idx').on(t.callbackHash).where(sql`${t.callbackHash} IS NOT NULL`),
    index('cardholder_messages_card_idx').on(t.cardId, t.createdAt.desc(), t.id.desc()),
    index('cardholder_messages_list_idx').on(t.businessId, t.mode, t.createdAt.desc(), t.id.desc()),
    uniqueIndex('cardholder_messages_dedupe_idx').on(t.dedupeKey).where(sql`${t.dedupeKey} IS NOT NULL`),
    index('cardholder_messages_order_idx').on(t.orderId).where(sql`${t.orderId} IS NOT NULL`),
    check('cardholder_messages_subject_check', sql`${t.cardId} IS NOT NULL OR ${t.orderId} IS NOT NULL`),
    check(
      'cardholder_messages_kind_check',
      sql`${t.kind} IN ('card_issued', 'money_added', 'money_spent', 'expiry_30_days', 'expiry_7_days', 'new_link', 'spend_code', 'gift_received', 'order_receipt')`,
    ),
    check('cardholder_messages_channel_check', sql`${t.channel} IN ('sms', 'email')`),
    check('cardholder_messages_status_check', sql`${t.status} IN ('not_sent_test_mode', 'queued', 'sent', 'delivered', 'failed')`),
  ],
);

/**
 * A redemption or capture over the business's spend_code_over, waiting for the cardholder's code (migration 0043,
 * lib/spend-codes/): the typed request, the salt the code is derived from (never the code), tries and its end.
 */
export const spendConfirmations = pgTable(
  'spend_confirmations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    cardId: id64('card_id')
      .notNull()
      .references(() => cards.id),
    kind: text('kind', { enum: ['redemption', 'capture'] }).notNull(),
    holdId: id64('hold_id').references(() => holds.id),
    amount: money('amount').notNull(),
    merchantReference: text('merchant_reference'),
    locationId: integer('location_id'),
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    codeSalt: text('code_salt').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    spendReference: text('spend_reference'),
    confirmedByType: text('confirmed_by_type'),
    confirmedById: text('confirmed_by_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('spend_confirmations_reference_idx').on(t.reference),
    index('spend_confirmations_card_idx').on(t.cardId, t.createdAt),
    check('spend_confirmations_kind_check', sql`${t.kind} IN ('redemption', 'capture')`),
    check('spend_confirmations_hold_check', sql`(${t.kind} = 'capture') = (${t.holdId} IS NOT NULL)`),
    check('spend_confirmations_amount_check', sql`${t.amount} > 0`),
  ],
);

/** A business's branches (migration 0041), the same in both modes: where a till redeems. */
export const locations = pgTable(
  'locations',
  {
    id: serial('id').primaryKey(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('locations_business_name_idx').on(t.businessId, sql`lower(${t.name})`)],
);

/** A business's public gift card shop (`/shop/{slug}`): one per business, in the mode it sells in. */
export const shops = pgTable(
  'shops',
  {
    businessId: integer('business_id')
      .primaryKey()
      .references(() => businesses.id),
    enabled: boolean('enabled').notNull().default(false),
    mode: text('mode', { enum: MODES }).notNull(),
    slug: text('slug').notNull(),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    presetAmounts: bigint('preset_amounts', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    minAmount: money('min_amount').notNull(),
    maxAmount: money('max_amount').notNull(),
    headline: text('headline'),
    color: text('color'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('shops_slug_idx').on(t.slug), check('shops_amounts', sql`${t.minAmount} > 0 AND ${t.maxAmount} >= ${t.minAmount}`)],
);

/** A card bought on a shop for someone: its payment, and once paid, the card it credited. */
export const shopOrders = pgTable(
  'shop_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reference: text('reference').notNull(),
    businessId: integer('business_id')
      .notNull()
      .references(() => businesses.id),
    mode: text('mode', { enum: MODES }).notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed'] }).notNull(),
    paymentId: id64('payment_id')
      .notNull()
      .references(() => payments.id),
    currency: text('currency', { enum: CURRENCIES }).notNull(),
    amount: money('amount').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientPhone: text('recipient_phone').notNull(),
    message: text('message'),
    buyerName: text('buyer_name').notNull(),
    buyerPhone: text('buyer_phone'),
    buyerEmail: text('buyer_email'),
    cardId: id64('card_id').references(() => cards.id),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    paidAt: ts('paid_at'),
  },
  (t) => [
    uniqueIndex('shop_orders_reference_idx').on(t.reference),
    uniqueIndex('shop_orders_payment_idx').on(t.paymentId),
    index('shop_orders_list_idx').on(t.businessId, t.mode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('shop_orders_recipient_idx').on(t.businessId, t.mode, t.recipientPhone),
    index('shop_orders_buyer_idx').on(t.businessId, t.mode, t.buyerPhone),
    index('shop_orders_card_idx').on(t.cardId, t.paidAt.desc()).where(sql`${t.cardId} IS NOT NULL`),
  ],
);
