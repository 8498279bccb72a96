CREATE TABLE "passes" (
	"passer_profile_id" integer NOT NULL,
	"passed_profile_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "passes_passer_profile_id_passed_profile_id_pk" PRIMARY KEY("passer_profile_id","passed_profile_id")
);
--> statement-breakpoint
ALTER TABLE "likes" ADD COLUMN "source" text DEFAULT 'profile' NOT NULL;--> statement-breakpoint
ALTER TABLE "passes" ADD CONSTRAINT "passes_passer_profile_id_profiles_id_fk" FOREIGN KEY ("passer_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "passes" ADD CONSTRAINT "passes_passed_profile_id_profiles_id_fk" FOREIGN KEY ("passed_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "likes_liker_source_idx" ON "likes" USING btree ("liker_profile_id","source","created_at");