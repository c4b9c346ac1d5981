-- Money set aside on the ledger (lib/holds/): the hold posts from its source account to the business's held account,
-- the release posts back. Open holds of a card make its held_amount.
CREATE TABLE "holds" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"source_account_id" bigint NOT NULL,
	"card_id" bigint,
	"amount" bigint NOT NULL,
	"purpose" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"hold_transaction_id" bigint NOT NULL,
	"release_transaction_id" bigint,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp (3) with time zone,
	CONSTRAINT "holds_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "holds_source_account_id_ledger_accounts_id_fk" FOREIGN KEY ("source_account_id") REFERENCES "ledger_accounts"("id"),
	CONSTRAINT "holds_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "cards"("id"),
	CONSTRAINT "holds_status_check" CHECK ("status" IN ('open', 'released')),
	CONSTRAINT "holds_amount_positive" CHECK ("amount" > 0)
);
--> statement-breakpoint
CREATE INDEX "holds_open_by_card_idx" ON "holds" USING btree ("card_id") WHERE "status" = 'open';
--> statement-breakpoint
-- Second-person approval: what waits, who asked, and how it ended.
CREATE TABLE "approval_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"card_id" bigint NOT NULL,
	"card_number" text NOT NULL,
	"options" jsonb NOT NULL,
	"maker_user_id" integer NOT NULL,
	"reason_code" text,
	"note" text,
	"status" text DEFAULT 'awaiting_approval' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp (3) with time zone,
	"decision_note" text,
	"failure_reason" text,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"result_reference" text,
	"hold_id" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_requests_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "approval_requests_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "cards"("id"),
	CONSTRAINT "approval_requests_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "holds"("id"),
	CONSTRAINT "approval_requests_status_check" CHECK ("status" IN ('awaiting_approval', 'approved', 'rejected', 'expired', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_reference_idx" ON "approval_requests" USING btree ("reference");
--> statement-breakpoint
CREATE INDEX "approval_requests_list_idx" ON "approval_requests" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
--> statement-breakpoint
CREATE INDEX "approval_requests_due_idx" ON "approval_requests" USING btree ("expires_at") WHERE "status" = 'awaiting_approval';
--> statement-breakpoint
-- The owner's threshold per currency: a dashboard payout of at least this amount waits for approval.
CREATE TABLE "approval_thresholds" (
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_thresholds_business_id_mode_currency_pk" PRIMARY KEY("business_id","mode","currency"),
	CONSTRAINT "approval_thresholds_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "approval_thresholds_amount_positive" CHECK ("amount" > 0)
);
