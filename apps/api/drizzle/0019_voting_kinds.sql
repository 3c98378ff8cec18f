CREATE TABLE "ranked_results" (
	"proposal_id" text PRIMARY KEY NOT NULL,
	"as_of_seq" bigint NOT NULL,
	"result" jsonb NOT NULL,
	"settled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ballots" ADD COLUMN "ranking" integer[];--> statement-breakpoint
ALTER TABLE "ranked_results" ADD CONSTRAINT "ranked_results_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;