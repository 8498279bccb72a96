ALTER TABLE "messages" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_sender_client_id_idx" ON "messages" USING btree ("sender_profile_id","client_id");