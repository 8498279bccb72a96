ALTER TABLE "orders" ADD COLUMN "vat_rate_basis_points" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "net_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "gross_cents" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_vat_whole" CHECK (("orders"."vat_rate_basis_points" is null and "orders"."net_cents" is null and "orders"."vat_cents" is null and "orders"."gross_cents" is null) or ("orders"."vat_rate_basis_points" >= 0 and "orders"."net_cents" is not null and "orders"."vat_cents" is not null and "orders"."net_cents" + "orders"."vat_cents" = "orders"."gross_cents"));