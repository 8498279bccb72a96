ALTER TABLE "mail_jobs" ADD COLUMN "sender" text;--> statement-breakpoint
ALTER TABLE "direct_debit_mandates" ADD COLUMN "provider_mandate_id" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "mail_from_name" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "mail_from_address" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "theme_color" text DEFAULT '#c2185b' NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "logo_url" text;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_theme_color" CHECK ("sites"."theme_color" ~ '^#[0-9a-fA-F]{6}$');