ALTER TABLE "sites" ADD COLUMN "staffing_hours" jsonb;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "typical_reply_minutes" integer DEFAULT 180 NOT NULL;