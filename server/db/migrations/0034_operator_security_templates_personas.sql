CREATE TABLE "persona_sheets" (
	"profile_id" integer PRIMARY KEY NOT NULL,
	"facts" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reply_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"text" text NOT NULL,
	"created_by" integer,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "password_change_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_notes" ADD COLUMN "category" text DEFAULT 'facts' NOT NULL;--> statement-breakpoint
ALTER TABLE "persona_sheets" ADD CONSTRAINT "persona_sheets_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "persona_sheets" ADD CONSTRAINT "persona_sheets_updated_by_staff_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_templates" ADD CONSTRAINT "reply_templates_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reply_templates" ADD CONSTRAINT "reply_templates_created_by_staff_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reply_templates_language_idx" ON "reply_templates" USING btree ("language","site_id");--> statement-breakpoint
CREATE INDEX "staff_audit_replies_idx" ON "staff_audit" USING btree ("object","at") WHERE "staff_audit"."action" = 'reply';