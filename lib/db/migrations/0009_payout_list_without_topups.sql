-- Ledger top-ups leave GET /card/payouts: their count moves from the payouts counter to a transfers counter of its own.
INSERT INTO "list_counters" ("business_id", "mode", "kind", "shard", "count")
SELECT "business_id", "mode", 'transfers', 0, count(*) FROM "payouts" WHERE "is_ledger_topup" GROUP BY "business_id", "mode"
ON CONFLICT ("business_id", "mode", "kind", "shard") DO UPDATE SET "count" = "list_counters"."count" + excluded."count";
--> statement-breakpoint
INSERT INTO "list_counters" ("business_id", "mode", "kind", "shard", "count")
SELECT "business_id", "mode", 'payouts', 0, -count(*) FROM "payouts" WHERE "is_ledger_topup" GROUP BY "business_id", "mode"
ON CONFLICT ("business_id", "mode", "kind", "shard") DO UPDATE SET "count" = "list_counters"."count" + excluded."count";
