ALTER TABLE "credit_ledger" ADD COLUMN "staff_id" integer;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "test_payments" ADD COLUMN "refunded_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "moderation" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
UPDATE "photos" SET "moderation" = 'approved';--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "action" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "handled_by_staff_id" integer;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "credit_ledger" ADD CONSTRAINT "credit_ledger_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "photos_moderation_idx" ON "photos" USING btree ("moderation","created_at");--> statement-breakpoint
CREATE INDEX "reports_profile_idx" ON "reports" USING btree ("profile_id");