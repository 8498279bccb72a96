ALTER TABLE "bundles" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "gifts" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD COLUMN "site_id" integer;--> statement-breakpoint
ALTER TABLE "bundles" ADD CONSTRAINT "bundles_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gifts" ADD CONSTRAINT "gifts_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_codes" ADD CONSTRAINT "discount_codes_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bundles_site_idx" ON "bundles" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "gifts_site_idx" ON "gifts" USING btree ("site_id");