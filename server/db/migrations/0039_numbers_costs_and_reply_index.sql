CREATE TABLE "traffic_costs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "traffic_costs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"site_id" integer,
	"network" text NOT NULL,
	"from_day" date NOT NULL,
	"to_day" date NOT NULL,
	"currency" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "traffic_costs" ADD CONSTRAINT "traffic_costs_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "traffic_costs_period_idx" ON "traffic_costs" USING btree ("from_day","to_day");--> statement-breakpoint
CREATE INDEX "staff_audit_reply_at_idx" ON "staff_audit" USING btree ("at") WHERE "staff_audit"."action" = 'reply';