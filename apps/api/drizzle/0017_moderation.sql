CREATE TABLE "moderation_actions" (
	"log_seq" bigint PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"kind" text NOT NULL,
	"moderator" text,
	"target" text NOT NULL,
	"thread_id" text NOT NULL,
	"reason" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "governance_log" DROP CONSTRAINT "governance_log_message_id_unique";--> statement-breakpoint
CREATE INDEX "moderation_actions_target_idx" ON "moderation_actions" USING btree ("target","log_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "governance_log_message_kind_unique" ON "governance_log" USING btree ("message_id","kind");