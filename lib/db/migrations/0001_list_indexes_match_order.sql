DROP INDEX "audit_log_business_idx";--> statement-breakpoint
DROP INDEX "cards_list_idx";--> statement-breakpoint
DROP INDEX "payments_list_idx";--> statement-breakpoint
DROP INDEX "payouts_list_idx";--> statement-breakpoint
DROP INDEX "webhook_events_list_idx";--> statement-breakpoint
CREATE INDEX "audit_log_business_idx" ON "audit_log" USING btree ("business_id","mode","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "cards_list_idx" ON "cards" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "cards"."cancelled_at" IS NULL;--> statement-breakpoint
CREATE INDEX "payments_list_idx" ON "payments" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payouts_list_idx" ON "payouts" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_events_list_idx" ON "webhook_events" USING btree ("business_id","mode","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);