CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_queue_key_unique" ON "jobs" USING btree ("queue","key");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_leased_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."status" in ('done', 'dead');--> statement-breakpoint
-- Mails and postbacks waiting when the job runner came: each gets its job, due when it was due.
INSERT INTO "jobs" ("queue", "key", "payload", "run_at", "attempts", "created_at")
SELECT 'mail.send', 'mail:' || "id", json_build_object('mail', "id")::jsonb, "run_at", "attempts", "created_at"
FROM "mail_jobs" WHERE "status" = 'pending';--> statement-breakpoint
INSERT INTO "jobs" ("queue", "key", "payload", "run_at", "attempts", "created_at")
SELECT 'postbacks.send', 'postback:' || "id", json_build_object('event', "id")::jsonb,
  coalesce("postback_next_at", "occurred_at"), "postback_attempts", "occurred_at"
FROM "attribution_events" WHERE "postback_status" = 'pending';
