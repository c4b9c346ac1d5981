-- The payouts list's search: any part of a reference or of the account name (trigrams), and a card or account number exactly (the numbers a payout touched, as one array).
-- Both keep GIN's pending list (fastupdate) with a small limit, since every payout writes them and the payout statement is the hot path.
CREATE INDEX "payouts_search_trgm_idx" ON "payouts" USING gin ((lower("reference" || ' ' || coalesce("account_name", ''))) gin_trgm_ops) WITH (gin_pending_list_limit=256);--> statement-breakpoint
CREATE INDEX "payouts_numbers_idx" ON "payouts" USING gin ((ARRAY["source_card_number", "destination_card_number", "account_number"])) WITH (gin_pending_list_limit=256);
