CREATE TABLE "member_strikes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"report_id" integer,
	"staff_id" integer,
	"number" integer NOT NULL,
	"consequence" text NOT NULL,
	"suspended_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"lifted_at" timestamp with time zone,
	CONSTRAINT "member_strikes_report_unique" UNIQUE("report_id")
);
--> statement-breakpoint
CREATE TABLE "strike_appeals" (
	"id" serial PRIMARY KEY NOT NULL,
	"strike_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_staff_id" integer,
	CONSTRAINT "strike_appeals_strike_unique" UNIQUE("strike_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "posting_suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "strike_rules" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "member_strikes" ADD CONSTRAINT "member_strikes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_strikes" ADD CONSTRAINT "member_strikes_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_strikes" ADD CONSTRAINT "member_strikes_staff_id_staff_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strike_appeals" ADD CONSTRAINT "strike_appeals_strike_id_member_strikes_id_fk" FOREIGN KEY ("strike_id") REFERENCES "public"."member_strikes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strike_appeals" ADD CONSTRAINT "strike_appeals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strike_appeals" ADD CONSTRAINT "strike_appeals_decided_by_staff_id_staff_id_fk" FOREIGN KEY ("decided_by_staff_id") REFERENCES "public"."staff"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_strikes_user_idx" ON "member_strikes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "strike_appeals_open_idx" ON "strike_appeals" USING btree ("status","created_at");