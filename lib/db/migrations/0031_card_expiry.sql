ALTER TABLE "businesses" ADD COLUMN "expiry_policy" text DEFAULT 'never' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "expiry_months" integer;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_expiry_policy_check" CHECK (("expiry_policy" = 'never' AND "expiry_months" IS NULL) OR ("expiry_policy" IN ('after_issue', 'after_last_load') AND "expiry_months" BETWEEN 1 AND 120));--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "expired_at" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "cards_expiry_due_idx" ON "cards" USING btree ("expires_at") WHERE "expires_at" IS NOT NULL AND "expired_at" IS NULL AND "cancelled_at" IS NULL;
