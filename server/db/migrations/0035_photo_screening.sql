ALTER TABLE "photos" ADD COLUMN "status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "screening" jsonb;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "screened_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "photo_screening" jsonb DEFAULT '{}'::jsonb NOT NULL;