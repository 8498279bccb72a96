CREATE TABLE "login_throttles" (
	"site_id" integer NOT NULL,
	"email" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"lock_level" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_throttles_site_id_email_pk" PRIMARY KEY("site_id","email")
);
--> statement-breakpoint
ALTER TABLE "login_throttles" ADD CONSTRAINT "login_throttles_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_throttles_updated_idx" ON "login_throttles" USING btree ("updated_at");--> statement-breakpoint
-- Hand-added: locks and counts in force move from the users to their addresses' throttles.
INSERT INTO "login_throttles" ("site_id", "email", "attempts", "failures", "window_start", "locked_until", "lock_level", "updated_at")
SELECT "site_id", lower(trim("email")), "failed_login_count", "failed_login_count", "failed_login_window_start", "locked_until", "lock_level", now()
FROM "users"
WHERE "email" IS NOT NULL AND ("failed_login_count" > 0 OR "locked_until" > now() OR "lock_level" > 0)
ON CONFLICT DO NOTHING;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_login_window_start";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "lock_level";