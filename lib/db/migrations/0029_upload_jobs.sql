-- Dashboard CSV uploads (lib/uploads/): a job per file, a row per line. Rows are written at preview,
-- so the preview and the run read the same data; a row's effect and its status commit together.
CREATE TABLE "upload_jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"business_id" integer NOT NULL,
	"mode" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"created_by" integer NOT NULL,
	"status" text DEFAULT 'previewed' NOT NULL,
	"row_count" integer NOT NULL,
	"invalid_count" integer NOT NULL,
	"totals" jsonb NOT NULL,
	"decided_by" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "upload_jobs_reference_unique" UNIQUE ("reference"),
	CONSTRAINT "upload_jobs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "businesses"("id"),
	CONSTRAINT "upload_jobs_kind_check" CHECK ("kind" IN ('cards', 'payouts')),
	CONSTRAINT "upload_jobs_status_check" CHECK ("status" IN ('previewed', 'awaiting_approval', 'running', 'done', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX "upload_jobs_business_idx" ON "upload_jobs" USING btree ("business_id", "mode", "kind", "id");
--> statement-breakpoint
CREATE INDEX "upload_jobs_running_idx" ON "upload_jobs" USING btree ("id") WHERE "status" = 'running';
--> statement-breakpoint
CREATE TABLE "upload_rows" (
	"job_id" bigint NOT NULL,
	"row_number" integer NOT NULL,
	"input" jsonb NOT NULL,
	"currency" text,
	"amount" bigint,
	"fee" bigint,
	"status" text NOT NULL,
	"claim" uuid,
	"claimed_at" timestamp (3) with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"result_reference" text,
	"error_code" text,
	"error_message" text,
	"finished_at" timestamp (3) with time zone,
	CONSTRAINT "upload_rows_pk" PRIMARY KEY ("job_id", "row_number"),
	CONSTRAINT "upload_rows_job_id_upload_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "upload_jobs"("id") ON DELETE CASCADE,
	CONSTRAINT "upload_rows_status_check" CHECK ("status" IN ('invalid', 'pending', 'succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE INDEX "upload_rows_pending_idx" ON "upload_rows" USING btree ("job_id", "row_number") WHERE "status" = 'pending';
