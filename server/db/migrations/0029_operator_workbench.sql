ALTER TABLE "conversations" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "max_claims" integer DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "sites" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "max_claims" integer;--> statement-breakpoint
-- Every conversation a member waits in now: the first of the member's messages after the fictional
-- profile's last one (the queue's old definition, read once here).
UPDATE "conversations" c SET "waiting_since" = w."since"
FROM (
  SELECT c2."id",
    (SELECT min(m."created_at") FROM "messages" m WHERE m."conversation_id" = c2."id"
      AND m."id" > coalesce((SELECT max(f."id") FROM "messages" f WHERE f."conversation_id" = c2."id"
        AND f."sender_profile_id" = CASE WHEN lo."fictional" THEN lo."id" ELSE hi."id" END), 0)) AS "since"
  FROM "conversations" c2
  JOIN "profiles" lo ON lo."id" = c2."low_profile_id"
  JOIN "profiles" hi ON hi."id" = c2."high_profile_id"
  WHERE lo."fictional" <> hi."fictional"
) w
WHERE c."id" = w."id" AND w."since" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "conversations_waiting_idx" ON "conversations" USING btree ("waiting_since","id") WHERE "conversations"."waiting_since" is not null;--> statement-breakpoint
CREATE INDEX "conversation_claims_staff_idx" ON "conversation_claims" USING btree ("staff_id","expires_at");