ALTER TABLE "users" ADD COLUMN "chargeback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_credits" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "reversed_credits" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "charged_back_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_within_amount" CHECK ("orders"."refund_cents" is null or ("orders"."refund_cents" > 0 and "orders"."refund_cents" <= "orders"."amount_cents"));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_refund_credits_within_order" CHECK ("orders"."refund_credits" is null or ("orders"."refund_credits" >= 0 and "orders"."refund_credits" <= "orders"."credits"));--> statement-breakpoint
-- Orders refunded before partial refunds existed gave back all their credits: a later chargeback
-- must find nothing left to take.
UPDATE "orders" SET "reversed_credits" = "credits" WHERE "status" = 'refunded';
