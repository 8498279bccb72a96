CREATE TABLE "stats_active_spans" (
	"site_id" integer NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	"members" integer NOT NULL,
	CONSTRAINT "stats_active_spans_site_id_first_day_last_day_pk" PRIMARY KEY("site_id","first_day","last_day")
);
--> statement-breakpoint
ALTER TABLE "stats_active_spans" ADD CONSTRAINT "stats_active_spans_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_active_days_user_idx" ON "member_active_days" USING btree ("user_id","day");