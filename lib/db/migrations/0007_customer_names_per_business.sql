CREATE TABLE "customer_names" (
	"business_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_names_business_id_customer_id_pk" PRIMARY KEY("business_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "customer_names" ADD CONSTRAINT "customer_names_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_names" ADD CONSTRAINT "customer_names_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The name goes only to the business whose card came first for the customer: the one that typed it (the customer row
-- was created with that card). Other businesses with cards for the phone see no name until they give their own.
INSERT INTO "customer_names" ("business_id", "customer_id", "first_name", "last_name", "email", "created_at")
SELECT DISTINCT ON (c."customer_id") c."business_id", c."customer_id", cu."first_name", cu."last_name", cu."email", cu."created_at"
FROM "cards" c JOIN "customers" cu ON cu."id" = c."customer_id"
ORDER BY c."customer_id", c."created_at", c."id";--> statement-breakpoint
-- Events already written for a business that did not type the name keep only the phone in their customer object.
-- The old object is rebuilt exactly as lib/webhooks/payloads.ts wrote it; a body that does not match is left as it is.
UPDATE "webhook_events" e
SET "body" = replace(e."body", '"customer":' || h."written", '"customer":{"phone_number":' || to_json(h."phone_number")::text || '}')
FROM (
  SELECT x."event_pk", cu."phone_number",
         '{' || concat_ws(',',
           '"first_name":' || to_json(nullif(cu."first_name", ''))::text,
           '"last_name":' || to_json(nullif(cu."last_name", ''))::text,
           '"email":' || to_json(nullif(cu."email", ''))::text,
           '"phone_number":' || to_json(cu."phone_number")::text) || '}' AS "written"
  FROM (
    SELECT ev."id" AS "event_pk", ev."business_id", coalesce(pm."card_id", po."source_card_id") AS "card_id"
    FROM "webhook_events" ev
    LEFT JOIN "payments" pm ON ev."type" LIKE 'payment.%' AND pm."link_reference" = ev."subject_reference"
    LEFT JOIN "payouts" po ON ev."type" LIKE 'payout.%' AND po."reference" = ev."subject_reference"
  ) x
  JOIN "cards" c ON c."id" = x."card_id"
  JOIN "customers" cu ON cu."id" = c."customer_id"
  WHERE NOT EXISTS (SELECT 1 FROM "customer_names" n WHERE n."business_id" = x."business_id" AND n."customer_id" = c."customer_id")
) h
WHERE e."id" = h."event_pk";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "first_name";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "last_name";--> statement-breakpoint
ALTER TABLE "customers" DROP COLUMN "email";