CREATE TABLE "campaign_recipients" (
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"batch" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message_id" integer,
	"at" timestamp with time zone,
	CONSTRAINT "campaign_recipients_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	"text" text NOT NULL,
	"segment" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"count" integer NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "opener_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"script_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"profile_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"first_contact_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"stop_reason" text
);
--> statement-breakpoint
CREATE TABLE "opener_scripts" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"language" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"steps" jsonb NOT NULL,
	"same_country" boolean DEFAULT true NOT NULL,
	"matches_seeking" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opener_step_runs" (
	"run_id" integer NOT NULL,
	"step" integer NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "opener_step_runs_run_id_step_pk" PRIMARY KEY("run_id","step")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "automated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opener_runs" ADD CONSTRAINT "opener_runs_script_id_opener_scripts_id_fk" FOREIGN KEY ("script_id") REFERENCES "public"."opener_scripts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opener_runs" ADD CONSTRAINT "opener_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opener_runs" ADD CONSTRAINT "opener_runs_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opener_scripts" ADD CONSTRAINT "opener_scripts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opener_step_runs" ADD CONSTRAINT "opener_step_runs_run_id_opener_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."opener_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_recipients_batch_idx" ON "campaign_recipients" USING btree ("campaign_id","batch");--> statement-breakpoint
CREATE INDEX "campaigns_site_idx" ON "campaigns" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "opener_runs_script_member_unique" ON "opener_runs" USING btree ("script_id","user_id");--> statement-breakpoint
CREATE INDEX "opener_runs_member_idx" ON "opener_runs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "opener_scripts_site_idx" ON "opener_scripts" USING btree ("site_id","language");