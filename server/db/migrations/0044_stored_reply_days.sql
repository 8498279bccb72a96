CREATE TABLE "stats_profile_reply_days" (
	"day" date NOT NULL,
	"site_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	"replies" integer NOT NULL,
	"earned" integer NOT NULL,
	CONSTRAINT "stats_profile_reply_days_day_site_id_profile_id_pk" PRIMARY KEY("day","site_id","profile_id")
);
--> statement-breakpoint
CREATE TABLE "stats_reply_days" (
	"day" date PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_staff_reply_days" (
	"day" date NOT NULL,
	"site_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"replies" integer NOT NULL,
	"earned" integer NOT NULL,
	"waits" double precision[] NOT NULL,
	"earlier_days" date[] NOT NULL,
	CONSTRAINT "stats_staff_reply_days_day_site_id_staff_id_pk" PRIMARY KEY("day","site_id","staff_id")
);
--> statement-breakpoint
ALTER TABLE "stats_profile_reply_days" ADD CONSTRAINT "stats_profile_reply_days_day_stats_reply_days_day_fk" FOREIGN KEY ("day") REFERENCES "public"."stats_reply_days"("day") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_profile_reply_days" ADD CONSTRAINT "stats_profile_reply_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_profile_reply_days" ADD CONSTRAINT "stats_profile_reply_days_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_staff_reply_days" ADD CONSTRAINT "stats_staff_reply_days_day_stats_reply_days_day_fk" FOREIGN KEY ("day") REFERENCES "public"."stats_reply_days"("day") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_staff_reply_days" ADD CONSTRAINT "stats_staff_reply_days_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stats_staff_reply_days" ADD CONSTRAINT "stats_staff_reply_days_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;