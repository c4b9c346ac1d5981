-- A business's public gift card shop (/shop/{slug}) and the orders bought there. An order's payment is a hosted
-- payment like any other, but the card it credits is found or issued only when it is paid: until then it has none.
ALTER TABLE "payments" ALTER COLUMN "card_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "card_number" DROP NOT NULL;--> statement-breakpoint
CREATE TABLE "shops" (
	"business_id" integer PRIMARY KEY NOT NULL REFERENCES "businesses"("id"),
	"enabled" boolean DEFAULT false NOT NULL,
	"mode" text NOT NULL,
	"slug" text NOT NULL,
	"currency" text NOT NULL,
	"preset_amounts" bigint[] DEFAULT '{}' NOT NULL,
	"min_amount" bigint NOT NULL,
	"max_amount" bigint NOT NULL,
	"headline" text,
	"color" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shops_amounts" CHECK ("min_amount" > 0 AND "max_amount" >= "min_amount")
);--> statement-breakpoint
CREATE UNIQUE INDEX "shops_slug_idx" ON "shops" USING btree ("slug");--> statement-breakpoint
CREATE TABLE "shop_orders" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"payment_id" bigint NOT NULL REFERENCES "payments"("id"),
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_phone" text NOT NULL,
	"message" text,
	"buyer_name" text NOT NULL,
	"buyer_phone" text,
	"buyer_email" text,
	"card_id" bigint REFERENCES "cards"("id"),
	"failure_reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_reference_idx" ON "shop_orders" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_orders_payment_idx" ON "shop_orders" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "shop_orders_list_idx" ON "shop_orders" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "shop_orders_recipient_idx" ON "shop_orders" USING btree ("business_id","mode","recipient_phone");--> statement-breakpoint
CREATE INDEX "shop_orders_buyer_idx" ON "shop_orders" USING btree ("business_id","mode","buyer_phone");
