-- A payout upload waiting for a second person expires as a single approval request does (APPROVAL_TTL_MS, 72 hours).
-- Uploads already waiting get the whole period from now: nobody was told they would expire.
ALTER TABLE "upload_jobs" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
UPDATE "upload_jobs" SET "expires_at" = now() + interval '72 hours' WHERE "status" = 'awaiting_approval';--> statement-breakpoint
ALTER TABLE "upload_jobs" DROP CONSTRAINT "upload_jobs_status_check";--> statement-breakpoint
ALTER TABLE "upload_jobs" ADD CONSTRAINT "upload_jobs_status_check" CHECK ("status" IN ('previewed', 'awaiting_approval', 'running', 'done', 'cancelled', 'expired'));--> statement-breakpoint
CREATE INDEX "upload_jobs_waiting_idx" ON "upload_jobs" USING btree ("expires_at") WHERE "status" = 'awaiting_approval';
