CREATE TABLE "bundle_prices" (
	"bundle_id" integer NOT NULL,
	"country" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	CONSTRAINT "bundle_prices_bundle_id_country_pk" PRIMARY KEY("bundle_id","country")
);
--> statement-breakpoint
CREATE TABLE "bundles" (
	"id" serial PRIMARY KEY NOT NULL,
	"credits" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gifts" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"image_key" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "gifts_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"gender" text NOT NULL,
	"sexuality" text DEFAULT 'hetero' NOT NULL,
	"birthdate" date NOT NULL,
	"country" text NOT NULL,
	"countryregion" text,
	"body_type" text,
	"hair" text,
	"eye_colour" text,
	"relationship_status" text,
	"tattoos" text,
	"interests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"about" text,
	"status" text DEFAULT 'active' NOT NULL,
	"fictional" boolean DEFAULT false NOT NULL,
	"last_active_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profiles_userId_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"email" text,
	"password_hash" text,
	"status" text DEFAULT 'not_confirmed' NOT NULL,
	"role" text DEFAULT 'member' NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"paid_user" boolean DEFAULT false NOT NULL,
	"trafficsource" jsonb,
	"language" text DEFAULT 'en' NOT NULL,
	"notifications_disabled" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signup_date" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_credits_not_negative" CHECK ("users"."credits" >= 0)
);
--> statement-breakpoint
CREATE TABLE "photos" (
	"id" serial PRIMARY KEY NOT NULL,
	"profile_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"main_key" text NOT NULL,
	"thumb_key" text NOT NULL,
	"blurred_key" text NOT NULL,
	"blurred_thumb_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"kvk" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL,
	"tradenames" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"vat_numbers" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"support_phone" text NOT NULL,
	"delete_discount" integer DEFAULT 0 NOT NULL,
	"added" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"index_title" text NOT NULL,
	"description" text NOT NULL,
	"countries" jsonb NOT NULL,
	"domain_language" text DEFAULT 'en' NOT NULL,
	"timezone" text DEFAULT 'Europe/Amsterdam' NOT NULL,
	"visible_profile_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"visible_profile_notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"search_fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cdn_prefix" text DEFAULT '' NOT NULL,
	"message_credits" integer DEFAULT 1 NOT NULL,
	"photo_credits" integer DEFAULT 2 NOT NULL,
	"gift_credits" integer DEFAULT 3 NOT NULL,
	"signup_credits" integer DEFAULT 0 NOT NULL,
	"message_length" integer DEFAULT 1000 NOT NULL,
	"minimum_message_costs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"min_age" integer DEFAULT 18 NOT NULL,
	"support_email" text NOT NULL,
	"support_phone" text DEFAULT '' NOT NULL,
	"enable_site_entry_popup" boolean DEFAULT true NOT NULL,
	"us_footer" boolean DEFAULT false NOT NULL,
	"fictional_warning" text DEFAULT '' NOT NULL,
	"fictional_singular" text DEFAULT '' NOT NULL,
	"fictional_plural" text DEFAULT '' NOT NULL,
	"refund_days" integer DEFAULT 14 NOT NULL,
	"signups" text DEFAULT 'all' NOT NULL,
	"logged_out_search" boolean DEFAULT false NOT NULL,
	"logged_out_search_trafficsource" boolean DEFAULT false NOT NULL,
	"member_resell" boolean DEFAULT false NOT NULL,
	"niche" integer DEFAULT 1 NOT NULL,
	"company_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sites_domain_unique" UNIQUE("domain"),
	CONSTRAINT "sites_niche_range" CHECK ("sites"."niche" between 1 and 7),
	CONSTRAINT "sites_min_age" CHECK ("sites"."min_age" >= 18)
);
--> statement-breakpoint
CREATE TABLE "app_secrets" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bundle_prices" ADD CONSTRAINT "bundle_prices_bundle_id_bundles_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."bundles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "profiles_search_idx" ON "profiles" USING btree ("country","gender","birthdate","last_active_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "profiles_region_idx" ON "profiles" USING btree ("country","countryregion");--> statement-breakpoint
CREATE UNIQUE INDEX "users_site_email_unique" ON "users" USING btree ("site_id",lower("email"));--> statement-breakpoint
CREATE INDEX "photos_profile_idx" ON "photos" USING btree ("profile_id","position");