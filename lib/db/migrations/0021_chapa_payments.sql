-- Live payments through Chapa: where the customer is sent, what they must do next, and what Chapa's verify last said.
ALTER TABLE "payments" ADD COLUMN "provider_checkout_url" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_next_action" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "provider_request_id" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "verify_state" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "verify_note" text;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "verified_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "next_verify_at" timestamp (3) with time zone;
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "verify_attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "payments_next_verify_idx" ON "payments" USING btree ("next_verify_at") WHERE "status" = 'pending' AND "next_verify_at" IS NOT NULL;
