CREATE TABLE "proposal_tallies" (
	"proposal_id" text PRIMARY KEY NOT NULL,
	"voters" integer NOT NULL,
	"voting_power" numeric(78, 0) NOT NULL,
	"quorum_power" numeric(78, 0) NOT NULL,
	"per_choice" jsonb NOT NULL,
	"last_seq" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ballots" ADD COLUMN "power" numeric(78, 0);--> statement-breakpoint
-- Hand-written backfill (drizzle-kit generates schema only): a database from before stored tallies gets its
-- ballots' power and one tally row per proposal, computed here as packages/core/src/tally.ts counts
-- (approval: each approved choice gets the full power; basic: a vote of only Abstain reaches the quorum
-- only when the rules say so). `npm run tallies:check` proves the rows equal to a recount.
UPDATE "ballots" SET "power" = "votes"."power" FROM "votes" WHERE "votes"."id" = "ballots"."vote_id";--> statement-breakpoint
ALTER TABLE "ballots" ALTER COLUMN "power" SET NOT NULL;--> statement-breakpoint
INSERT INTO "proposal_tallies" ("proposal_id", "voters", "voting_power", "quorum_power", "per_choice", "last_seq")
SELECT
	p."id",
	(SELECT count(*) FROM "ballots" b WHERE b."proposal_id" = p."id"),
	(SELECT coalesce(sum(b."power"), 0) FROM "ballots" b WHERE b."proposal_id" = p."id"),
	(SELECT coalesce(sum(b."power"), 0) FROM "ballots" b JOIN "votes" v ON v."id" = b."vote_id"
		WHERE b."proposal_id" = p."id"
		AND NOT (
			p."message"->>'kind' = 'basic'
			AND NOT (p."message"->'abstainCountsToQuorum')::boolean
			AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(v."message"->'choices') c WHERE c::int <> 3)
		)),
	(SELECT jsonb_agg(
		(SELECT coalesce(sum(b."power"), 0)::text FROM "ballots" b JOIN "votes" v ON v."id" = b."vote_id"
			WHERE b."proposal_id" = p."id" AND v."message"->'choices' @> to_jsonb(i))
		ORDER BY i)
	FROM generate_series(1, jsonb_array_length(p."message"->'choices')) AS i),
	(SELECT max(l."seq") FROM "governance_log" l WHERE l."proposal_id" = p."id")
FROM "proposals" p;--> statement-breakpoint
ALTER TABLE "proposal_tallies" ADD CONSTRAINT "proposal_tallies_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ballots_by_power_idx" ON "ballots" USING btree ("proposal_id","power" DESC NULLS LAST,"voter" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ballots_by_time_idx" ON "ballots" USING btree ("proposal_id","timestamp" DESC NULLS LAST,"voter" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "proposals_by_start_idx" ON "proposals" USING btree ("start" DESC NULLS LAST,"id" DESC NULLS LAST);
