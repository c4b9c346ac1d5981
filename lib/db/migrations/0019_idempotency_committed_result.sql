ALTER TABLE "idempotency_keys" ADD COLUMN "committed_result" jsonb;
