CREATE TABLE "order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"source" text NOT NULL,
	"provider_status" text NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"charged_back_cents" integer DEFAULT 0 NOT NULL,
	"status_before" text NOT NULL,
	"status_after" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bundles" ADD COLUMN "badge" text;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "names" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "credits" integer;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("order_id","id");