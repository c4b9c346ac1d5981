-- A card-to-card payout of 100 with no fee, as the one statement writePayout
-- (lib/payouts/create-payout.ts) sends, run by pgbench's own client: what
-- PostgreSQL alone can do, with no Node.js at all. Kept by hand in step with
-- that statement. Variables: biz (business id), lo and hi (its card id range).
\set a random(:lo, :hi)
\set b :lo + (:a - :lo + random(1, :hi - :lo)) % (:hi - :lo + 1)
WITH ids AS MATERIALIZED (
  SELECT 'c2c_' || md5(random()::text) AS reference, 'msg_' || md5(random()::text) AS event_id,
         (SELECT account_id FROM cards WHERE id = :a) AS source, (SELECT account_id FROM cards WHERE id = :b) AS destination
), wanted AS (
  SELECT * FROM (VALUES ((SELECT source FROM ids), -100::bigint), ((SELECT destination FROM ids), 100), (NULL, NULL)) AS w(account_id, amount)
  WHERE account_id IS NOT NULL
), locked AS MATERIALIZED (
  SELECT id, currency, balance, allow_negative, closed_at IS NOT NULL AS closed
  FROM ledger_accounts WHERE id = ANY(ARRAY[(SELECT source FROM ids), (SELECT destination FROM ids), NULL]) ORDER BY id FOR UPDATE
), moves AS MATERIALIZED (
  SELECT l.id, l.currency, w.amount, l.balance + w.amount AS after, l.allow_negative, l.closed
  FROM locked l JOIN wanted w ON w.account_id = l.id
), verdict AS MATERIALIZED (
  SELECT count(*)::int AS found, 2 AS wanted,
         min(id) FILTER (WHERE after < 0 AND NOT allow_negative) AS short_account,
         min(id) FILTER (WHERE closed) AS closed_account,
         (SELECT string_agg(currency || ' by ' || total, ', ') FROM
           (SELECT currency, sum(amount) AS total FROM moves GROUP BY currency HAVING sum(amount) <> 0) u) AS unbalanced,
         ((SELECT count(*) FROM cards WHERE id IN (:a, :b) AND status = 1 AND cancelled_at IS NULL) = 1 + (:b::bigint IS NOT NULL)::int
           AND coalesce((SELECT concat(percent_scaled, ':', fixed, ':', min, ':', max) FROM fee_rules
             WHERE business_id = :biz AND mode = 'test' AND applies_to = 'card_to_card'), '') = '') AS guard_ok
  FROM moves
), posted AS (
  INSERT INTO ledger_transactions (mode, kind, business_id, reference, actor_type, actor_id, reverses_id)
  SELECT 'test', 'payout_card_to_card', :biz, (SELECT reference FROM ids), 'system', 'bench', NULL::bigint
  FROM verdict WHERE found = wanted AND short_account IS NULL AND closed_account IS NULL AND unbalanced IS NULL AND guard_ok
  RETURNING id
), entries AS (
  INSERT INTO ledger_entries (transaction_id, account_id, currency, amount, balance_after)
  SELECT posted.id, m.id, m.currency, m.amount, m.after FROM posted, moves m
), balances AS (
  UPDATE ledger_accounts a SET balance = m.after FROM moves m, posted WHERE a.id = m.id
), payout AS (
  INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                       source_card_id, source_card_number, destination_card_number, merchant_id, bank_slug, account_number,
                       account_name, transaction_id, actor_type, actor_id, created_at, updated_at, completed_at, settle_after)
  SELECT :biz, 'test', 'card_to_card', 'success', 'ETB', 100, 0, 'sender', (SELECT reference FROM ids), :a, '1001067780636219',
         '1001307495024222', NULL, NULL, NULL, NULL, posted.id, 'system', 'bench', now(), now(), now(), NULL
  FROM posted RETURNING id
), payout_counted AS (
  INSERT INTO list_counters (business_id, mode, kind, shard, count) SELECT :biz, 'test', 'payouts', pg_backend_pid() % 64, 1 FROM payout
  ON CONFLICT (business_id, mode, kind, shard) DO UPDATE SET count = list_counters.count + 1
), payout_audited AS (
  INSERT INTO audit_log (business_id, mode, actor_type, actor_id, action, target, details)
  SELECT :biz, 'test', 'system', 'bench', 'payout.card_to_card.created', (SELECT reference FROM ids),
         '{"amount":100,"service_fee":0,"charge_payer":"sender","status":"success"}'::jsonb
  FROM payout
), event AS (
  INSERT INTO webhook_events (event_id, business_id, mode, type, body, subject_reference)
  SELECT (SELECT event_id FROM ids), :biz, 'test', 'payout.success',
         '{"event":"payout.success","status":"success","mode":"test","payout_type":"card_to_card","currency":"ETB","amount":100,"initiator_reference":"c2c_FNdDCRHzBQzL2mXAoCE8TvlI","customer":{"first_name":"Bench","last_name":"Holder","phone_number":"+251900006597"},"meta":{"source_card_number":"1001067780636219","destination_card_number":"1001307495024222"},"created_at":"2026-11-22T05:54:52.042Z","updated_at":"2026-11-22T05:54:52.042Z"}',
         (SELECT reference FROM ids)
  FROM payout RETURNING id
), event_counted AS (
  INSERT INTO list_counters (business_id, mode, kind, shard, count) SELECT :biz, 'test', 'events', pg_backend_pid() % 64, 1 FROM event
  ON CONFLICT (business_id, mode, kind, shard) DO UPDATE SET count = list_counters.count + 1
), event_deliveries AS (
  INSERT INTO webhook_deliveries (event_id, endpoint_id, state)
  SELECT event.id, w.id, CASE WHEN w.disabled_at IS NULL THEN 'pending' ELSE 'failed' END FROM event, webhook_endpoints w
  WHERE w.business_id = :biz AND w.mode = 'test'
)
SELECT v.found, v.wanted, v.short_account, v.closed_account, v.unbalanced, v.guard_ok, (SELECT id FROM posted) AS transaction_id,
       (SELECT json_object_agg(id, after) FROM moves) AS balances, (SELECT id FROM payout) AS payout_id
FROM verdict v;
