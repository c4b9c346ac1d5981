-- The shop floor (issue 45): a fifth role, cashier, and the business's branches. A teammate may be tied to one
-- branch; a redemption's ledger transaction and a till hold keep the branch they happened at (null: none named).
ALTER TABLE "users" ADD CONSTRAINT "users_role_check" CHECK ("role" IN ('owner', 'operator', 'finance', 'support', 'cashier'));--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_role_check" CHECK ("role" IN ('owner', 'operator', 'finance', 'support', 'cashier'));--> statement-breakpoint
CREATE TABLE "locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"business_id" integer NOT NULL REFERENCES "businesses"("id"),
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "locations_business_name_idx" ON "locations" USING btree ("business_id", lower("name"));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "location_id" integer REFERENCES "locations"("id");--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "location_id" integer;--> statement-breakpoint
CREATE INDEX "ledger_transactions_location_idx" ON "ledger_transactions" USING btree ("location_id", "created_at") WHERE "location_id" IS NOT NULL;
