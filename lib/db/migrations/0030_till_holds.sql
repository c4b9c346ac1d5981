-- Holds a till places on a card (lib/holds/till/): the API names them by reference, they expire, and they end
-- captured, voided or expired. `status` stays the ledger's view (open: the money is held), so every sum of open
-- holds (held_amount, limits, liability) counts them unchanged; `outcome` says how a released till hold ended.
ALTER TABLE "holds" ADD COLUMN "kind" text DEFAULT 'approval' NOT NULL;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "merchant_reference" text;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "captured_amount" bigint;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "capture_fee" bigint;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "capture_transaction_id" bigint;--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_kind_check" CHECK ("kind" IN ('approval', 'till'));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_outcome_check" CHECK ("outcome" IN ('captured', 'voided', 'expired'));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_till_shape" CHECK ("kind" <> 'till' OR ("reference" IS NOT NULL AND "expires_at" IS NOT NULL AND "card_id" IS NOT NULL));--> statement-breakpoint
CREATE UNIQUE INDEX "holds_reference_idx" ON "holds" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "holds_till_by_card_idx" ON "holds" USING btree ("card_id", "created_at" DESC, "id" DESC) WHERE "kind" = 'till';--> statement-breakpoint
CREATE INDEX "holds_till_due_idx" ON "holds" USING btree ("expires_at") WHERE "kind" = 'till' AND "status" = 'open';
