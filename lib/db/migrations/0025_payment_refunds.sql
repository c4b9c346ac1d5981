-- Refunds of paid top-ups: each refund debits the card (or the business account the payment credited) in the same
-- transaction that writes its row and raises the payment's refunded total, which can never pass what was paid.
-- A live refund's row is also its request to the rail (state queued -> sent -> done), sent once by reference.
ALTER TABLE "payments" ADD COLUMN "refunded_amount" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_refunded_within_amount" CHECK ("refunded_amount" >= 0 AND "refunded_amount" <= "amount");
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"payment_id" bigint NOT NULL,
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"rail" text NOT NULL,
	"transaction_id" bigint NOT NULL,
	"reversal_transaction_id" bigint,
	"failure_reason" text,
	"request_state" text DEFAULT 'done' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"provider_reference" text,
	"last_error" text,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp (3) with time zone,
	CONSTRAINT "refunds_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "payments"("id"),
	CONSTRAINT "refunds_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "refunds_amount_positive" CHECK ("amount" > 0),
	CONSTRAINT "refunds_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed')),
	CONSTRAINT "refunds_request_state_check" CHECK ("request_state" IN ('queued', 'sending', 'sent', 'done'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_reference_idx" ON "refunds" USING btree ("reference");
--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id","created_at");
--> statement-breakpoint
CREATE INDEX "refunds_business_idx" ON "refunds" USING btree ("business_id","mode","created_at");
--> statement-breakpoint
CREATE INDEX "refunds_due_idx" ON "refunds" USING btree ("next_attempt_at") WHERE "request_state" <> 'done';
