-- The language and calendar a person reads the dashboard in (no language: their browser's), and the ones a
-- business shows its customers (hosted checkout). Display only: APIs and CSV keep ISO 8601 and English.
ALTER TABLE "users" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar" text DEFAULT 'gregorian' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_language_check" CHECK ("users"."language" IN ('en', 'am'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_calendar_check" CHECK ("users"."calendar" IN ('gregorian', 'ethiopic'));--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "customer_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "calendar" text DEFAULT 'gregorian' NOT NULL;--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_customer_language_check" CHECK ("businesses"."customer_language" IN ('en', 'am'));--> statement-breakpoint
ALTER TABLE "businesses" ADD CONSTRAINT "businesses_calendar_check" CHECK ("businesses"."calendar" IN ('gregorian', 'ethiopic'));
