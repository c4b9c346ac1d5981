-- Messages to cardholders (lib/messages/): written in the transaction of what they announce, sent after the commit by
-- the job queue's `cardholder_message` jobs. A card gets them once issued with notify or shared by SMS or email
-- (cards.messages_on); a business turns kinds off (businesses.message_kinds_off). Only the callback token's hash is kept.
ALTER TABLE "cards" ADD COLUMN "messages_on" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "message_kinds_off" text[] DEFAULT '{}'::text[] NOT NULL;
--> statement-breakpoint
CREATE TABLE "cardholder_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"card_id" bigint NOT NULL REFERENCES "cards"("id"),
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"to_address" text NOT NULL,
	"facts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"text" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"provider_message_id" text,
	"callback_hash" text,
	"in_flight" boolean DEFAULT false NOT NULL,
	"uncertain_sends" integer DEFAULT 0 NOT NULL,
	"sends" integer DEFAULT 0 NOT NULL,
	"dedupe_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	"delivered_at" timestamp (3) with time zone,
	CONSTRAINT "cardholder_messages_kind_check" CHECK ("kind" IN ('card_issued', 'money_added', 'money_spent', 'expiry_30_days', 'expiry_7_days', 'new_link')),
	CONSTRAINT "cardholder_messages_channel_check" CHECK ("channel" IN ('sms', 'email')),
	CONSTRAINT "cardholder_messages_status_check" CHECK ("status" IN ('not_sent_test_mode', 'queued', 'sent', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cardholder_messages_reference_idx" ON "cardholder_messages" USING btree ("reference");
--> statement-breakpoint
CREATE UNIQUE INDEX "cardholder_messages_callback_idx" ON "cardholder_messages" USING btree ("callback_hash") WHERE "callback_hash" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "cardholder_messages_card_idx" ON "cardholder_messages" USING btree ("card_id", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "cardholder_messages_list_idx" ON "cardholder_messages" USING btree ("business_id", "mode", "created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE UNIQUE INDEX "cardholder_messages_dedupe_idx" ON "cardholder_messages" USING btree ("dedupe_key") WHERE "dedupe_key" IS NOT NULL;
