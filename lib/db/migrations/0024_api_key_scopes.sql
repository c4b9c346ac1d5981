-- Restricted keys: what an API key may do. Existing keys keep all four scopes.
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] DEFAULT ARRAY['read','cards','payments','payouts']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scopes_check" CHECK (cardinality("scopes") > 0 AND "scopes" <@ ARRAY['read','cards','payments','payouts']::text[]);
