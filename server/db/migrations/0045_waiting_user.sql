ALTER TABLE "conversations" ADD COLUMN "waiting_user_id" integer;
--> statement-breakpoint
-- The member of every pair that waits now (the message write keeps it from here on).
UPDATE "conversations" AS "c" SET "waiting_user_id" = CASE WHEN "low"."fictional" THEN "high"."user_id" ELSE "low"."user_id" END
FROM "profiles" AS "low", "profiles" AS "high"
WHERE "low"."id" = "c"."low_profile_id" AND "high"."id" = "c"."high_profile_id"
  AND "c"."waiting_since" IS NOT NULL AND "low"."fictional" <> "high"."fictional";
