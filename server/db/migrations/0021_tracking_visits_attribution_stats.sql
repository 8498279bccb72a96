CREATE TABLE "attribution_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attribution_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"click_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"event" text NOT NULL,
	"network" text,
	"amount_cents" integer,
	"currency" text,
	"occurred_at" timestamp with time zone NOT NULL,
	"postback_url" text,
	"postback_status" text DEFAULT 'none' NOT NULL,
	"postback_attempts" integer DEFAULT 0 NOT NULL,
	"postback_next_at" timestamp with time zone,
	"postback_sent_at" timestamp with time zone,
	"postback_error" text
);
--> statement-breakpoint
CREATE TABLE "member_active_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "member_active_days_site_id_day_user_id_pk" PRIMARY KEY("site_id","day","user_id")
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"site_id" integer NOT NULL,
	"click_id" text NOT NULL,
	"network" text,
	"ref" text,
	"sub1" text,
	"sub2" text,
	"sub3" text,
	"lander" text,
	"slug" text,
	"path" text NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "activated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "first_purchase_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "postbacks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "attribution_events" ADD CONSTRAINT "attribution_events_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attribution_events" ADD CONSTRAINT "attribution_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_active_days" ADD CONSTRAINT "member_active_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_active_days" ADD CONSTRAINT "member_active_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attribution_events_click_event_unique" ON "attribution_events" USING btree ("site_id","click_id","event");--> statement-breakpoint
CREATE INDEX "attribution_events_postback_due_idx" ON "attribution_events" USING btree ("postback_next_at") WHERE "attribution_events"."postback_status" = 'pending';--> statement-breakpoint
CREATE INDEX "attribution_events_user_idx" ON "attribution_events" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visits_site_click_unique" ON "visits" USING btree ("site_id","click_id");--> statement-breakpoint
CREATE INDEX "visits_site_seen_idx" ON "visits" USING btree ("site_id","first_seen_at");--> statement-breakpoint
CREATE INDEX "visits_seen_idx" ON "visits" USING btree ("first_seen_at");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_site_signup_idx" ON "users" USING btree ("site_id","signup_date");--> statement-breakpoint
CREATE INDEX "users_site_activated_idx" ON "users" USING btree ("site_id","activated_at") WHERE "users"."activated_at" is not null;--> statement-breakpoint
CREATE INDEX "users_site_first_purchase_idx" ON "users" USING btree ("site_id","first_purchase_at") WHERE "users"."first_purchase_at" is not null;--> statement-breakpoint
CREATE INDEX "orders_site_settled_idx" ON "orders" USING btree ("site_id","settled_at") WHERE "orders"."status" = 'completed';