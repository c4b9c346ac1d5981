CREATE TABLE "history_totals" (
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"list" text NOT NULL,
	"grain" text NOT NULL,
	"bucket" timestamp (3) with time zone NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"shard" smallint NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"fee" bigint DEFAULT 0 NOT NULL,
	"net" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "history_totals_pk" PRIMARY KEY("business_id","mode","list","grain","bucket","type","status","currency","shard")
);
--> statement-breakpoint
CREATE INDEX "payments_amount_idx" ON "payments" USING btree ("business_id","mode","amount" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payouts_amount_idx" ON "payouts" USING btree ("business_id","mode","amount" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- One payout or payment as it counts in history_totals, with a sign: +1 as written, -1 as it was before a change.
CREATE TYPE "history_change" AS ("business_id" integer, "mode" text, "type" text, "status" text, "currency" text, "created_at" timestamptz, "count" bigint, "amount" bigint, "fee" bigint, "net" bigint);
--> statement-breakpoint
-- A payout's net is what leaves the paying card (or, for a ledger top-up, the business account): the amount, plus the fee
-- unless the payer takes it off what is received (card_to_card receiver, bank and b2b business; lib/payouts/payout-quote.ts).
CREATE FUNCTION "payout_history_change"(p "payouts", sign integer) RETURNS "history_change" LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(p.business_id, p.mode, CASE WHEN p.is_ledger_topup THEN 'topup' ELSE p.payout_type END, p.status, p.currency, p.created_at,
             sign, sign * p.amount, sign * p.service_fee,
             sign * (p.amount + CASE WHEN (p.payout_type, p.charge_payer) IN (('card_to_card', 'receiver'), ('bank', 'business'), ('b2b', 'business'))
                                     THEN 0 ELSE p.service_fee END))::"history_change"
$$;
--> statement-breakpoint
-- A payment's net is what the card received: the amount (the customer paid the amount and the fee).
CREATE FUNCTION "payment_history_change"(p "payments", sign integer) RETURNS "history_change" LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(p.business_id, p.mode, p.type, p.status, p.currency, p.created_at, sign, sign * p.amount, sign * p.service_fee, sign * p.amount)::"history_change"
$$;
--> statement-breakpoint
-- Adds changes to their hour, day and month buckets (UTC) on this connection's shard, in key order so writers lock rows in one order;
-- groups whose changes cancel out (an update that moved nothing counted) write nothing.
CREATE FUNCTION "history_totals_apply"(of_list text, changes "history_change"[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "history_totals" AS t ("business_id", "mode", "list", "grain", "bucket", "type", "status", "currency", "shard", "count", "amount", "fee", "net")
  SELECT c.business_id, c.mode, of_list, g.grain, date_trunc(g.grain, c.created_at, 'UTC'), c.type, c.status, c.currency, pg_backend_pid() % 8,
         sum(c.count), sum(c.amount), sum(c.fee), sum(c.net)
  FROM unnest(changes) c CROSS JOIN (VALUES ('hour'), ('day'), ('month')) g(grain)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  HAVING sum(c.count) <> 0 OR sum(c.amount) <> 0 OR sum(c.fee) <> 0 OR sum(c.net) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9
  ON CONFLICT ON CONSTRAINT "history_totals_pk" DO UPDATE
  SET "count" = t."count" + excluded."count", "amount" = t."amount" + excluded."amount", "fee" = t."fee" + excluded."fee", "net" = t."net" + excluded."net";
END
$$;
--> statement-breakpoint
-- Statement triggers with transition tables: a bulk insert (a seed, a backfill) costs one upsert per bucket, not one per row,
-- and every write path (the payout statement, transfers, settlement, tests that move created_at) is covered in its own transaction.
CREATE FUNCTION "payouts_history_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM history_totals_apply('payouts', ARRAY(SELECT payout_history_change(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM history_totals_apply('payouts', ARRAY(SELECT payout_history_change(o, -1) FROM old_rows o UNION ALL SELECT payout_history_change(n, 1) FROM new_rows n));
  ELSE
    PERFORM history_totals_apply('payouts', ARRAY(SELECT payout_history_change(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "payments_history_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o UNION ALL SELECT payment_history_change(n, 1) FROM new_rows n));
  ELSE
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payouts_history_totals_insert" AFTER INSERT ON "payouts" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "payouts_history_totals"();
--> statement-breakpoint
CREATE TRIGGER "payouts_history_totals_update" AFTER UPDATE ON "payouts" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "payouts_history_totals"();
--> statement-breakpoint
CREATE TRIGGER "payouts_history_totals_delete" AFTER DELETE ON "payouts" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "payouts_history_totals"();
--> statement-breakpoint
CREATE TRIGGER "payments_history_totals_insert" AFTER INSERT ON "payments" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "payments_history_totals"();
--> statement-breakpoint
CREATE TRIGGER "payments_history_totals_update" AFTER UPDATE ON "payments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "payments_history_totals"();
--> statement-breakpoint
CREATE TRIGGER "payments_history_totals_delete" AFTER DELETE ON "payments" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "payments_history_totals"();
--> statement-breakpoint
-- The backfill: every payout and payment written before the triggers, on shard 0.
INSERT INTO "history_totals" ("business_id", "mode", "list", "grain", "bucket", "type", "status", "currency", "shard", "count", "amount", "fee", "net")
SELECT (c).business_id, (c).mode, x.list, g.grain, date_trunc(g.grain, (c).created_at, 'UTC'), (c).type, (c).status, (c).currency, 0,
       sum((c).count), sum((c).amount), sum((c).fee), sum((c).net)
FROM (SELECT 'payouts' AS list, payout_history_change(p, 1) AS c FROM "payouts" p
      UNION ALL SELECT 'payments', payment_history_change(p, 1) FROM "payments" p) x
CROSS JOIN (VALUES ('hour'), ('day'), ('month')) g(grain)
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
