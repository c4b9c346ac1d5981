ALTER TABLE "payments" ADD COLUMN "verify_requested_at" timestamp (3) with time zone;
