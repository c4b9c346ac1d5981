-- Limits shared by every app instance. Unlogged: they are worth no WAL, and after a crash of PostgreSQL they start full again.
-- rate_limit_buckets has no index beside its key, so each take is a HOT update; pruning scans it.
CREATE UNLOGGED TABLE "rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"taken" integer NOT NULL,
	"refilled_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNLOGGED TABLE "sign_in_failures" (
	"pair_key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_at" timestamp (3) with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_idx" ON "sign_in_failures" USING btree ("last_at");--> statement-breakpoint
CREATE UNLOGGED TABLE "live_streams" (
	"id" uuid PRIMARY KEY NOT NULL,
	"session_key" text NOT NULL,
	"address" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "live_streams_session_idx" ON "live_streams" USING btree ("session_key");--> statement-breakpoint
CREATE INDEX "live_streams_address_idx" ON "live_streams" USING btree ("address");--> statement-breakpoint
CREATE INDEX "live_streams_expires_idx" ON "live_streams" USING btree ("expires_at");
