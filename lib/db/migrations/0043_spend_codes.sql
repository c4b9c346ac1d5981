-- A cardholder's code for large spends (issue 45 item 4). Over spend_code_over (per business, mode and currency, in
-- minor units; null: off) a redemption or a hold's capture waits in spend_confirmations for the 6-digit code the
-- card's phone gets by SMS (message kind spend_code). The code itself is never stored: it is derived from the row's
-- random salt and the server's AUTH_SECRET (lib/spend-codes/spend-code.ts), so neither this table nor a message's
-- text holds it.
ALTER TABLE "business_limits" ADD COLUMN "spend_code_over" bigint;--> statement-breakpoint
ALTER TABLE "business_limits" ADD CONSTRAINT "business_limits_spend_code_over_check" CHECK ("spend_code_over" IS NULL OR "spend_code_over" >= 0);--> statement-breakpoint
CREATE TABLE "spend_confirmations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"card_id" bigint NOT NULL REFERENCES "cards"("id"),
	"kind" text NOT NULL,
	"hold_id" bigint REFERENCES "holds"("id"),
	"amount" bigint NOT NULL,
	"merchant_reference" text,
	"location_id" integer,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"code_salt" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"spend_reference" text,
	"confirmed_by_type" text,
	"confirmed_by_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spend_confirmations_kind_check" CHECK ("kind" IN ('redemption', 'capture')),
	CONSTRAINT "spend_confirmations_hold_check" CHECK (("kind" = 'capture') = ("hold_id" IS NOT NULL)),
	CONSTRAINT "spend_confirmations_amount_check" CHECK ("amount" > 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "spend_confirmations_reference_idx" ON "spend_confirmations" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "spend_confirmations_card_idx" ON "spend_confirmations" USING btree ("card_id", "created_at");--> statement-breakpoint
ALTER TABLE "cardholder_messages" DROP CONSTRAINT "cardholder_messages_kind_check";--> statement-breakpoint
ALTER TABLE "cardholder_messages" ADD CONSTRAINT "cardholder_messages_kind_check" CHECK ("kind" IN ('card_issued', 'money_added', 'money_spent', 'expiry_30_days', 'expiry_7_days', 'new_link', 'spend_code'));
