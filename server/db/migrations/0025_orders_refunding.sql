DROP INDEX "orders_discount_once_unique";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "test_payments" ADD COLUMN "refund_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_discount_once_unique" ON "orders" USING btree ("discount_code_id","user_id") WHERE "orders"."discount_reserved" and "orders"."status" in ('pending', 'completed', 'refunding', 'refunded');