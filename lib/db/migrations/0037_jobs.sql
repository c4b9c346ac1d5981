-- One queue for work that must happen after a commit (lib/jobs/): a job is written in the transaction of the money it
-- follows, claimed with FOR UPDATE SKIP LOCKED under a lease (locked_until), retried on the one capped backoff, and
-- 'dead' once it has had max_attempts tries, for a person to see. The provider requests (rail_requests) and live refunds
-- keep their own rows for what they are; their attempt counts and due times move here.
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"business_id" integer,
	"mode" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "jobs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "jobs_state_check" CHECK ("state" IN ('pending', 'done', 'dead')),
	CONSTRAINT "jobs_max_attempts_positive" CHECK ("max_attempts" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_subject_idx" ON "jobs" USING btree ("kind","subject");
--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("kind","run_at") WHERE "state" = 'pending';
--> statement-breakpoint
CREATE INDEX "jobs_dead_idx" ON "jobs" USING btree ("kind","updated_at") WHERE "state" = 'dead';
--> statement-breakpoint
INSERT INTO "jobs" ("kind", "subject", "business_id", "mode", "run_at", "attempts", "max_attempts", "last_error")
SELECT 'rail_request', "reference", "business_id", "mode", "next_attempt_at", "attempts", greatest(150, "attempts" + 1), "last_error"
FROM "rail_requests" WHERE "state" <> 'done';
--> statement-breakpoint
INSERT INTO "jobs" ("kind", "subject", "business_id", "mode", "state", "run_at", "attempts", "max_attempts", "last_error")
SELECT 'refund', "reference", "business_id", "mode", CASE WHEN "request_state" = 'sent' THEN 'dead' ELSE 'pending' END,
       "next_attempt_at", "attempts", greatest(150, "attempts" + 1), "last_error"
FROM "refunds" WHERE "request_state" <> 'done' AND "status" = 'pending';
--> statement-breakpoint
DROP INDEX "rail_requests_due_idx";
--> statement-breakpoint
DROP INDEX "refunds_due_idx";
--> statement-breakpoint
ALTER TABLE "rail_requests" DROP COLUMN "attempts", DROP COLUMN "next_attempt_at";
--> statement-breakpoint
ALTER TABLE "refunds" DROP COLUMN "attempts", DROP COLUMN "next_attempt_at";
