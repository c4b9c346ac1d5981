ALTER TABLE "customers" DROP CONSTRAINT "customers_phone_number_unique";--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "mode" text;--> statement-breakpoint
UPDATE "customers" cu SET "mode" = coalesce((SELECT min(c."mode") FROM "cards" c WHERE c."customer_id" = cu."id"), 'test');--> statement-breakpoint
WITH "twins" AS (
  INSERT INTO "customers" ("mode", "phone_number", "national_number", "first_name", "last_name", "email", "created_at")
  SELECT 'test', cu."phone_number", cu."national_number", cu."first_name", cu."last_name", cu."email", cu."created_at" FROM "customers" cu
  WHERE cu."mode" = 'live' AND EXISTS (SELECT 1 FROM "cards" c WHERE c."customer_id" = cu."id" AND c."mode" = 'test')
  RETURNING "id", "phone_number"
)
UPDATE "cards" c SET "customer_id" = t."id" FROM "twins" t, "customers" old
WHERE old."id" = c."customer_id" AND old."phone_number" = t."phone_number" AND old."mode" = 'live' AND c."mode" = 'test';--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "mode" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_phone_mode_idx" ON "customers" USING btree ("phone_number","mode");
