CREATE TABLE "history_folds" (
	"list" text PRIMARY KEY NOT NULL,
	"folded_through" bigint NOT NULL
);
--> statement-breakpoint
-- From here a payout or payment counts in history_totals once a fold passes its id, not as it is inserted: the insert
-- triggers' three upserts were a fifth of the payout statement's cost. Readers sum the rows past the fold themselves.
-- Writers wait while the starting point is taken, so no row is counted twice or missed.
LOCK TABLE "payouts", "payments" IN ACCESS EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "history_folds" ("list", "folded_through")
SELECT 'payouts', coalesce(max("id"), 0) FROM "payouts" UNION ALL SELECT 'payments', coalesce(max("id"), 0) FROM "payments";
--> statement-breakpoint
DROP TRIGGER "payouts_history_totals_insert" ON "payouts";
--> statement-breakpoint
DROP TRIGGER "payments_history_totals_insert" ON "payments";
--> statement-breakpoint
-- The fold mark an update or delete of the list goes by. The shared advisory lock waits for a fold in progress and keeps
-- the next one from moving the mark until this transaction ends (lib/dashboard/history-totals-fold.ts); the mark is
-- then read afresh, as READ COMMITTED does for each statement. A REPEATABLE READ writer could read a mark older than a
-- fold that already counted its row as it was, so such a writer is refused rather than left to lose its change.
CREATE FUNCTION "history_folded_through"(of_list text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  folded bigint;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'changes to % must be made in READ COMMITTED transactions, or history_totals would miss them', of_list;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(727002, CASE of_list WHEN 'payouts' THEN 1 ELSE 2 END);
  SELECT "folded_through" INTO folded FROM "history_folds" WHERE "list" = of_list;
  IF folded IS NULL THEN
    RAISE EXCEPTION 'history_folds has no mark for %', of_list;
  END IF;
  RETURN folded;
END
$$;
--> statement-breakpoint
-- An update or delete moves the totals only for rows already folded; a fold reads the others as they are by then.
CREATE OR REPLACE FUNCTION "payouts_history_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folded bigint := history_folded_through('payouts');
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM history_totals_apply('payouts', ARRAY(SELECT payout_history_change(o, -1) FROM old_rows o WHERE o.id <= folded
                                                  UNION ALL SELECT payout_history_change(n, 1) FROM new_rows n WHERE n.id <= folded));
  ELSE
    PERFORM history_totals_apply('payouts', ARRAY(SELECT payout_history_change(o, -1) FROM old_rows o WHERE o.id <= folded));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "payments_history_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folded bigint := history_folded_through('payments');
BEGIN
  IF TG_OP = 'UPDATE' THEN
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o WHERE o.id <= folded
                                                   UNION ALL SELECT payment_history_change(n, 1) FROM new_rows n WHERE n.id <= folded));
  ELSE
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o WHERE o.id <= folded));
  END IF;
  RETURN NULL;
END
$$;
