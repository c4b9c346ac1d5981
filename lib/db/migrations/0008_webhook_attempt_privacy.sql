ALTER TABLE "webhook_attempts" ALTER COLUMN "duration_ms" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "private_detail" jsonb;--> statement-breakpoint
-- Earlier attempts did not record where they went: test mode alone could reach loopback, so every test-mode attempt
-- that got as far as the network, and every one to the dashboard's own endpoint, is taken as non-public.
UPDATE "webhook_attempts" a SET
  "private_detail" = jsonb_build_object('status_code', a."status_code", 'duration_ms', a."duration_ms", 'error', a."error", 'response_excerpt', a."response_excerpt"),
  "status_code" = NULL,
  "duration_ms" = NULL,
  "error" = CASE WHEN a."error" IS NULL THEN NULL ELSE 'Delivery failed; details are not shown for non-public addresses.' END,
  "response_excerpt" = NULL
FROM "webhook_deliveries" d JOIN "webhook_endpoints" w ON w."id" = d."endpoint_id"
WHERE d."id" = a."delivery_id" AND (w."mode" = 'test' OR w."kind" = 'dashboard') AND coalesce(a."error", '') NOT LIKE 'refused:%';
