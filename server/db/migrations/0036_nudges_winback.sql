CREATE TABLE "nudge_sends" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"local_date" text NOT NULL,
	"count" integer NOT NULL,
	"latest_event_at" timestamp with time zone NOT NULL,
	"mailed" boolean NOT NULL,
	"pushed" boolean NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "winback_offers" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"round" integer NOT NULL,
	"discount_code_id" integer,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "winback_rules" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"inactive_days" integer NOT NULL,
	"value_percentage" integer NOT NULL,
	"validity_days" integer NOT NULL,
	"repeat_after_days" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "winback_rules_percentage" CHECK ("winback_rules"."value_percentage" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "email_visitors" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "email_unread" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "email_likes_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "push_visitors" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "push_unread" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD COLUMN "push_likes_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "nudge_sends" ADD CONSTRAINT "nudge_sends_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winback_offers" ADD CONSTRAINT "winback_offers_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winback_offers" ADD CONSTRAINT "winback_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winback_offers" ADD CONSTRAINT "winback_offers_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "winback_rules" ADD CONSTRAINT "winback_rules_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "nudge_sends_one_a_day" ON "nudge_sends" USING btree ("user_id","local_date");--> statement-breakpoint
CREATE INDEX "nudge_sends_user_kind_idx" ON "nudge_sends" USING btree ("user_id","kind","latest_event_at");--> statement-breakpoint
CREATE UNIQUE INDEX "winback_offers_user_round" ON "winback_offers" USING btree ("user_id","round");--> statement-breakpoint
CREATE INDEX "winback_offers_site_idx" ON "winback_offers" USING btree ("site_id","sent_at");