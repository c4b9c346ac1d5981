-- pg_trgm (shipped with PostgreSQL and with the embedded server) gives the dashboard search its any-part-of-a-name indexes.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "businesses_name_trgm_idx" ON "businesses" USING gin (lower("name") gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "cards_last_four_idx" ON "cards" USING btree ("business_id","mode",right("card_number", 4));--> statement-breakpoint
CREATE INDEX "cards_cancelled_list_idx" ON "cards" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "cards"."cancelled_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "customer_names_name_trgm_idx" ON "customer_names" USING gin (lower(coalesce("first_name", '') || ' ' || coalesce("last_name", '')) gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "payments_merchant_reference_trgm_idx" ON "payments" USING gin (lower("merchant_reference") gin_trgm_ops) WITH (fastupdate=false) WHERE "payments"."merchant_reference" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payments_provider_reference_idx" ON "payments" USING btree ("provider_reference") WHERE "payments"."provider_reference" IS NOT NULL;