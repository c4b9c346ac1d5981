-- The cardholder's card page link: the token is shown once (in the link) and only its hash is kept.
CREATE TABLE "card_links" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"mode" text NOT NULL,
	"card_id" bigint NOT NULL REFERENCES "cards"("id"),
	"token_hash" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp (3) with time zone
);--> statement-breakpoint
CREATE UNIQUE INDEX "card_links_token_idx" ON "card_links" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "card_links_live_idx" ON "card_links" USING btree ("card_id") WHERE "card_links"."ended_at" IS NULL;
