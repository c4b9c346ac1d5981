CREATE TABLE "business_limits" (
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"max_payout" bigint,
	"daily_payout" bigint,
	"max_card_balance" bigint,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "business_limits_pk" PRIMARY KEY ("business_id", "mode", "currency"),
	CONSTRAINT "business_limits_positive" CHECK (coalesce("max_payout", 1) > 0 AND coalesce("daily_payout", 1) > 0 AND coalesce("max_card_balance", 1) > 0)
);--> statement-breakpoint
CREATE TABLE "payout_day_totals" (
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"total" bigint NOT NULL,
	CONSTRAINT "payout_day_totals_pk" PRIMARY KEY ("business_id", "mode", "currency", "day")
);--> statement-breakpoint
CREATE UNIQUE INDEX "cards_account_idx" ON "cards" USING btree ("account_id");
