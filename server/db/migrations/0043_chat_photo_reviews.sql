CREATE TABLE "chat_photo_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"sender_user_id" integer NOT NULL,
	"sender_profile_id" integer NOT NULL,
	"recipient_profile_id" integer NOT NULL,
	"photo_key" text NOT NULL,
	"photo_thumb_key" text NOT NULL,
	"credits" integer NOT NULL,
	"client_id" text,
	"status" text DEFAULT 'held' NOT NULL,
	"hold_reason" text NOT NULL,
	"screening" jsonb NOT NULL,
	"message_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chat_photo_reviews" ADD CONSTRAINT "chat_photo_reviews_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_photo_reviews" ADD CONSTRAINT "chat_photo_reviews_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_photo_reviews" ADD CONSTRAINT "chat_photo_reviews_sender_profile_id_profiles_id_fk" FOREIGN KEY ("sender_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_photo_reviews" ADD CONSTRAINT "chat_photo_reviews_recipient_profile_id_profiles_id_fk" FOREIGN KEY ("recipient_profile_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_photo_reviews" ADD CONSTRAINT "chat_photo_reviews_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_photo_reviews_status_idx" ON "chat_photo_reviews" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "chat_photo_reviews_conversation_idx" ON "chat_photo_reviews" USING btree ("conversation_id","sender_profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_photo_reviews_sender_client_id_idx" ON "chat_photo_reviews" USING btree ("sender_profile_id","client_id");