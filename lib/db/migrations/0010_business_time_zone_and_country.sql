ALTER TABLE "businesses" ADD COLUMN "time_zone" text DEFAULT 'Africa/Addis_Ababa' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "country" text DEFAULT 'ET' NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("business_id","mode","target","created_at" DESC NULLS FIRST);