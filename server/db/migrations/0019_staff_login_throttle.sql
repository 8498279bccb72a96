CREATE TABLE "staff_login_throttles" (
	"email" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone,
	"locked_until" timestamp with time zone,
	"lock_level" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "staff_login_throttles_updated_idx" ON "staff_login_throttles" USING btree ("updated_at");--> statement-breakpoint
ALTER TABLE "staff" DROP COLUMN "failed_login_count";--> statement-breakpoint
ALTER TABLE "staff" DROP COLUMN "failed_login_window_start";--> statement-breakpoint
ALTER TABLE "staff" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "staff" DROP COLUMN "lock_level";