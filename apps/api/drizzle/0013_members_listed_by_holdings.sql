DROP INDEX "member_stats_by_votes_idx";--> statement-breakpoint
DROP INDEX "member_stats_by_delegators_idx";--> statement-breakpoint
DROP INDEX "member_stats_by_participation_idx";--> statement-breakpoint
ALTER TABLE "member_stats" ADD COLUMN "listed" boolean GENERATED ALWAYS AS (votes > 0 or balance > 0 or delegators > 0 or votes_cast > 0) STORED NOT NULL;--> statement-breakpoint
-- Hand-written (drizzle-kit generates schema only; ADR 037): signing in no longer adds a member. The rows only
-- a sign-in made go: nothing held, voted or delegated, an account the token index never touched, so no longer
-- one apps/api/src/indexer/member-stats.ts recounts (MEMBER_STATS_RECOUNT).
DELETE FROM "member_stats" m
WHERE NOT m."listed"
	AND NOT EXISTS (SELECT 1 FROM "token_balance_checkpoints" b WHERE b."account" = m."address")
	AND NOT EXISTS (SELECT 1 FROM "token_delegate_changes" d WHERE d."delegator" = m."address")
	AND m."address" NOT IN (SELECT "delegate" FROM "token_delegate_changes")
	AND NOT EXISTS (SELECT 1 FROM "token_vote_checkpoints" v WHERE v."delegate" = m."address")
	AND NOT EXISTS (SELECT 1 FROM "ballots" v WHERE v."voter" = m."address");--> statement-breakpoint
CREATE INDEX "member_stats_by_votes_idx" ON "member_stats" USING btree ("votes" DESC NULLS LAST,"address" DESC NULLS LAST) WHERE "member_stats"."listed";--> statement-breakpoint
CREATE INDEX "member_stats_by_delegators_idx" ON "member_stats" USING btree ("delegators" DESC NULLS LAST,"votes" DESC NULLS LAST,"address" DESC NULLS LAST) WHERE "member_stats"."listed";--> statement-breakpoint
CREATE INDEX "member_stats_by_participation_idx" ON "member_stats" USING btree ("participation" DESC NULLS LAST,"votes" DESC NULLS LAST,"address" DESC NULLS LAST) WHERE "member_stats"."listed";