CREATE TABLE "history_folds" (
	"list" text PRIMARY KEY NOT NULL,
	"folded_through" bigint NOT NULL
);
--> statement-breakpoint
-- From here a payout or payment counts in history_totals once a fold passes its id, not as it is inserted: the insert
-- triggers' three upserts were a fifth of the payout statement's cost. Readers sum the rows past the fold themselves.
-- Writers wait while the starting point is taken, so no row is counted twice or missed.
LOCK TABLE "payouts", "payments" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO "history_folds" ("list", "folded_through")
SELECT 'payouts', coalesce(max("id"), 0) FROM "payouts" UNION ALL SELECT 'payments', coalesce(max("id"), 0) FROM "payments";
--> statement-breakpoint
DROP TRIGGER "payouts_history_totals_insert" ON "payouts";
--> statement-breakpoint
DROP TRIGGER "payments_history_totals_insert" ON "payments";
--> statement-breakpoint
-- An update or delete moves the totals only for rows already folded; a fold reads the others as they are by then.
-- The key-share lock on the mark waits for a fold in progress and keeps the next one from moving the mark until this
-- transaction ends (lib/dashboard/history-totals-fold.ts).
CREATE OR REPLACE FUNCTION "payouts_history_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  folded bigint;
BEGIN
  SELECT "folded_through" INTO folded FROM "history_folds" WHERE "list" = 'payouts' FOR KEY SHARE;
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
  folded bigint;
BEGIN
  SELECT "folded_through" INTO folded FROM "history_folds" WHERE "list" = 'payments' FOR KEY SHARE;
  IF TG_OP = 'UPDATE' THEN
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o WHERE o.id <= folded
                                                   UNION ALL SELECT payment_history_change(n, 1) FROM new_rows n WHERE n.id <= folded));
  ELSE
    PERFORM history_totals_apply('payments', ARRAY(SELECT payment_history_change(o, -1) FROM old_rows o WHERE o.id <= folded));
  END IF;
  RETURN NULL;
END
$$;
