-- The outbox of requests to a payout provider (Chapa's POST /transfers): a row is written by the payout statement that
-- debits the card, so a payout that exists always has its request, and a worker sends each one once per reference.
CREATE TABLE "rail_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"payout_id" bigint NOT NULL,
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"provider" text NOT NULL,
	"reference" text NOT NULL,
	"bank_code" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"provider_reference" text,
	"provider_status" text,
	"verified_at" timestamp (3) with time zone,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rail_requests_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "payouts"("id"),
	CONSTRAINT "rail_requests_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "rail_requests_state_check" CHECK ("state" IN ('queued', 'sending', 'sent', 'done'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rail_requests_reference_idx" ON "rail_requests" USING btree ("reference");
--> statement-breakpoint
CREATE UNIQUE INDEX "rail_requests_payout_idx" ON "rail_requests" USING btree ("payout_id");
--> statement-breakpoint
CREATE INDEX "rail_requests_due_idx" ON "rail_requests" USING btree ("next_attempt_at") WHERE "state" <> 'done';
--> statement-breakpoint
CREATE INDEX "rail_requests_business_idx" ON "rail_requests" USING btree ("business_id","mode","created_at");
