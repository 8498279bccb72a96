CREATE TABLE "stats_site_days" (
	"site_id" integer NOT NULL,
	"day" date NOT NULL,
	"messages_in" integer NOT NULL,
	"replies_out" integer NOT NULL,
	"median" double precision,
	"waits" double precision[] NOT NULL,
	"active_members" integer NOT NULL,
	CONSTRAINT "stats_site_days_site_id_day_pk" PRIMARY KEY("site_id","day")
);
--> statement-breakpoint
ALTER TABLE "stats_site_days" ADD CONSTRAINT "stats_site_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profiles_fictional_user_idx" ON "profiles" USING btree ("user_id") WHERE "profiles"."fictional";