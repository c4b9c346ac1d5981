-- A shop order's own messages (issue 44): the recipient's gift (`gift_received`: the card's link, the buyer's name and
-- message) instead of card_issued and money_added, and the buyer's receipt (`order_receipt`), a message of the order and
-- of no card. A message now names its card, its order, or both. The kinds' CHECK is rewritten whole, with 0043's
-- 'spend_code', so both migrations apply in order.
ALTER TABLE "cardholder_messages" ALTER COLUMN "card_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "cardholder_messages" ADD COLUMN "order_id" bigint REFERENCES "shop_orders"("id");--> statement-breakpoint
ALTER TABLE "cardholder_messages" ADD CONSTRAINT "cardholder_messages_subject_check" CHECK ("card_id" IS NOT NULL OR "order_id" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "cardholder_messages" DROP CONSTRAINT "cardholder_messages_kind_check";--> statement-breakpoint
ALTER TABLE "cardholder_messages" ADD CONSTRAINT "cardholder_messages_kind_check" CHECK ("kind" IN ('card_issued', 'money_added', 'money_spent', 'expiry_30_days', 'expiry_7_days', 'new_link', 'spend_code', 'gift_received', 'order_receipt'));--> statement-breakpoint
CREATE INDEX "cardholder_messages_order_idx" ON "cardholder_messages" USING btree ("order_id") WHERE "order_id" IS NOT NULL;
--> statement-breakpoint
-- The card page shows the gifts bought for its card (the buyer's name and message, whole).
CREATE INDEX "shop_orders_card_idx" ON "shop_orders" USING btree ("card_id", "paid_at" DESC) WHERE "card_id" IS NOT NULL;
--> statement-breakpoint
-- The payer's service fee given back with a refund: only a shop order that was paid but could not be fulfilled
-- repays it (the buyer gets all they paid); it comes back from the fee revenue account that took it.
ALTER TABLE "refunds" ADD COLUMN "service_fee" bigint DEFAULT 0 NOT NULL;
