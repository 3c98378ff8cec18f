CREATE TABLE "ballots" (
	"proposal_id" text NOT NULL,
	"voter" text NOT NULL,
	"vote_id" text NOT NULL,
	"timestamp" bigint NOT NULL,
	CONSTRAINT "ballots_proposal_id_voter_pk" PRIMARY KEY("proposal_id","voter")
);
--> statement-breakpoint
CREATE TABLE "governance_log" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"message_id" text NOT NULL,
	"proposal_id" text NOT NULL,
	"signature" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "governance_log_message_id_unique" UNIQUE("message_id")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" text PRIMARY KEY NOT NULL,
	"author" text NOT NULL,
	"start" bigint NOT NULL,
	"end" bigint NOT NULL,
	"snapshot" bigint NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "votes" (
	"id" text PRIMARY KEY NOT NULL,
	"proposal_id" text NOT NULL,
	"voter" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"power" numeric(78, 0) NOT NULL,
	"power_source" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ballots" ADD CONSTRAINT "ballots_vote_id_votes_id_fk" FOREIGN KEY ("vote_id") REFERENCES "public"."votes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "governance_log_proposal_idx" ON "governance_log" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "proposals_end_idx" ON "proposals" USING btree ("end");--> statement-breakpoint
CREATE INDEX "votes_proposal_idx" ON "votes" USING btree ("proposal_id");