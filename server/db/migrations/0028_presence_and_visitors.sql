CREATE TABLE "profile_visits" (
	"id" serial PRIMARY KEY NOT NULL,
	"visited_profile_id" integer NOT NULL,
	"visitor_profile_id" integer NOT NULL,
	"day" date NOT NULL,
	"visited_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "browse_invisibly" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "visitors_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "staffing_hours" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "typical_reply_minutes" integer DEFAULT 180 NOT NULL;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visited_profile_id_profiles_id_fk" FOREIGN KEY ("visited_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_visits" ADD CONSTRAINT "profile_visits_visitor_profile_id_profiles_id_fk" FOREIGN KEY ("visitor_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "profile_visits_once_a_day" ON "profile_visits" USING btree ("visited_profile_id","visitor_profile_id","day");--> statement-breakpoint
CREATE INDEX "profile_visits_newest" ON "profile_visits" USING btree ("visited_profile_id","visited_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "profile_visits_visitor_idx" ON "profile_visits" USING btree ("visitor_profile_id");