-- A payout upload that waits for a second person is an approval request like any other (lib/approvals): its money is
-- held on each source card, so the request names no single card, hold or (for a file in several currencies) currency.
ALTER TABLE "approval_requests" ALTER COLUMN "card_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_requests" ALTER COLUMN "card_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_requests" ALTER COLUMN "hold_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_requests" ALTER COLUMN "currency" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_jobs" ADD COLUMN "approval_reference" text;--> statement-breakpoint
-- Uploads waiting before this had no request and held nothing: nobody could decide or expire them now, so they expire
-- (their rows cancelled, nothing moved); the uploader sends the file again.
UPDATE "upload_rows" SET "status" = 'cancelled', "finished_at" = now()
  WHERE "status" = 'pending' AND "job_id" IN (SELECT "id" FROM "upload_jobs" WHERE "status" = 'awaiting_approval');--> statement-breakpoint
UPDATE "upload_jobs" SET "status" = 'expired', "finished_at" = now() WHERE "status" = 'awaiting_approval';
