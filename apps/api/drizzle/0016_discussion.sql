CREATE TABLE "comment_flags" (
	"comment_id" text NOT NULL,
	"author" text NOT NULL,
	"reason" text NOT NULL,
	"power" numeric(78, 0) NOT NULL,
	"log_seq" bigint NOT NULL,
	CONSTRAINT "comment_flags_comment_id_author_pk" PRIMARY KEY("comment_id","author")
);
--> statement-breakpoint
CREATE TABLE "comment_versions" (
	"version_id" text PRIMARY KEY NOT NULL,
	"comment_id" text NOT NULL,
	"body" text,
	"mentions" text[] NOT NULL,
	"timestamp" bigint NOT NULL,
	"log_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"thread_id" text NOT NULL,
	"parent_id" text,
	"depth" integer NOT NULL,
	"path" text NOT NULL,
	"author" text NOT NULL,
	"body" text,
	"mentions" text[] NOT NULL,
	"version_id" text NOT NULL,
	"versions" integer DEFAULT 1 NOT NULL,
	"created_at" bigint NOT NULL,
	"edited_at" bigint,
	"log_seq" bigint NOT NULL,
	"withdrawn_seq" bigint,
	"hidden_by" text,
	"hidden_reason" text,
	"hidden_at" bigint,
	"hidden_seq" bigint,
	"hidden_auto" boolean DEFAULT false NOT NULL,
	"flag_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discussion_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"member" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires" bigint NOT NULL,
	"timestamp" bigint NOT NULL,
	"id" text NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"log_seq" bigint NOT NULL,
	"revoked_seq" bigint,
	"revoked_at" bigint,
	CONSTRAINT "discussion_keys_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "discussion_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"thread_id" text,
	"author" text NOT NULL,
	"key" text NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"log_seq" bigint NOT NULL,
	"taken_down_at" bigint,
	"takedown_reason" text,
	CONSTRAINT "discussion_messages_log_seq_unique" UNIQUE("log_seq")
);
--> statement-breakpoint
CREATE TABLE "reactions" (
	"target_id" text NOT NULL,
	"author" text NOT NULL,
	"reaction" text NOT NULL,
	"on" boolean NOT NULL,
	"log_seq" bigint NOT NULL,
	CONSTRAINT "reactions_target_id_author_reaction_pk" PRIMARY KEY("target_id","author","reaction")
);
--> statement-breakpoint
CREATE TABLE "thread_visits" (
	"member" text NOT NULL,
	"thread_id" text NOT NULL,
	"seq" bigint NOT NULL,
	CONSTRAINT "thread_visits_member_thread_id_pk" PRIMARY KEY("member","thread_id")
);
--> statement-breakpoint
CREATE TABLE "threads" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"proposal_id" text,
	"topic_id" text,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"last_activity_seq" bigint NOT NULL,
	"locked_by" text,
	"locked_reason" text,
	"locked_at" bigint,
	"locked_seq" bigint
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" text PRIMARY KEY NOT NULL,
	"author" text NOT NULL,
	"category" text NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"mentions" text[] NOT NULL,
	"created_at" bigint NOT NULL,
	"log_seq" bigint NOT NULL,
	"proposal_id" text
);
--> statement-breakpoint
CREATE INDEX "comment_versions_comment_idx" ON "comment_versions" USING btree ("comment_id","log_seq");--> statement-breakpoint
CREATE UNIQUE INDEX "comments_thread_path_idx" ON "comments" USING btree ("thread_id","path");--> statement-breakpoint
CREATE INDEX "discussion_keys_member_idx" ON "discussion_keys" USING btree ("member","timestamp" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "discussion_messages_thread_idx" ON "discussion_messages" USING btree ("thread_id","log_seq");--> statement-breakpoint
CREATE INDEX "threads_by_activity_idx" ON "threads" USING btree ("kind","last_activity_seq" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "topics_proposal_idx" ON "topics" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "votes_with_reason_idx" ON "votes" USING btree ("proposal_id") WHERE "votes"."message"->>'reason' <> '';--> statement-breakpoint
CREATE INDEX "votes_by_voter_idx" ON "votes" USING btree ("proposal_id","voter");