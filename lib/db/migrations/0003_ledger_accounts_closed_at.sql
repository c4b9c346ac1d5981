ALTER TABLE "ledger_accounts" ADD COLUMN "closed_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "closed_at" = c."cancelled_at" FROM "cards" c WHERE c."account_id" = a."id" AND c."cancelled_at" IS NOT NULL;
