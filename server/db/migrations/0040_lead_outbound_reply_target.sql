ALTER TABLE "sites" ADD COLUMN "reply_target_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "outbound" boolean DEFAULT false NOT NULL;