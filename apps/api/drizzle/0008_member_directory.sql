CREATE TABLE "member_eligibility_counted" (
	"proposal_id" text PRIMARY KEY NOT NULL,
	"snapshot" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_stats" (
	"address" text PRIMARY KEY NOT NULL,
	"votes" numeric(78, 0) DEFAULT 0 NOT NULL,
	"balance" numeric(78, 0) DEFAULT 0 NOT NULL,
	"delegate" text,
	"delegators" integer DEFAULT 0 NOT NULL,
	"votes_cast" integer DEFAULT 0 NOT NULL,
	"eligible_proposals" integer DEFAULT 0 NOT NULL,
	"participation" integer GENERATED ALWAYS AS (case when eligible_proposals = 0 then 0 else least(1000000, votes_cast::bigint * 1000000 / eligible_proposals)::integer end) STORED NOT NULL,
	"last_vote_at" bigint
);
--> statement-breakpoint
ALTER TABLE "token_index_cursor" ADD COLUMN "total_votes" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_eligibility_counted" ADD CONSTRAINT "member_eligibility_counted_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_stats_by_votes_idx" ON "member_stats" USING btree ("votes" DESC NULLS LAST,"address" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_stats_by_delegators_idx" ON "member_stats" USING btree ("delegators" DESC NULLS LAST,"votes" DESC NULLS LAST,"address" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_stats_by_participation_idx" ON "member_stats" USING btree ("participation" DESC NULLS LAST,"votes" DESC NULLS LAST,"address" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_stats_address_prefix_idx" ON "member_stats" USING btree (lower("address") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "member_stats_delegate_idx" ON "member_stats" USING btree ("delegate");--> statement-breakpoint
-- Hand-written backfill (drizzle-kit generates schema only): a database from before the members directory
-- gets its rows as apps/api/src/indexer/member-stats.ts recounts them (MEMBER_STATS_RECOUNT): the index's
-- latest balance, delegate and votes of every account, the delegators holding tokens, the ballots, the
-- signed-in members, and the proposals whose snapshot the index has reached counted as eligible.
-- `npm run tallies:check` proves the rows equal to a recount.
INSERT INTO "member_eligibility_counted" ("proposal_id", "snapshot")
SELECT p."id", p."snapshot" FROM "proposals" p
WHERE EXISTS (SELECT 1 FROM "token_index_cursor" c WHERE p."snapshot" <= c."block");--> statement-breakpoint
INSERT INTO "member_stats" ("address", "votes", "balance", "delegate", "delegators", "votes_cast", "eligible_proposals", "last_vote_at")
WITH
	balances AS (
		SELECT DISTINCT ON (account) account AS address, balance
		FROM token_balance_checkpoints ORDER BY account, block DESC),
	delegations AS (
		SELECT DISTINCT ON (delegator) delegator AS address, nullif(delegate, '0x0000000000000000000000000000000000000000') AS delegate
		FROM token_delegate_changes ORDER BY delegator, block DESC),
	powers AS (
		SELECT DISTINCT ON (delegate) delegate AS address, votes
		FROM token_vote_checkpoints ORDER BY delegate, block DESC),
	delegator_counts AS (
		SELECT d.delegate AS address, count(*)::integer AS delegators
		FROM delegations d JOIN balances b ON b.address = d.address
		WHERE d.delegate <> d.address AND b.balance > 0 GROUP BY d.delegate),
	voted AS (
		SELECT voter AS address, count(*)::integer AS votes_cast, max("timestamp") AS last_vote_at
		FROM ballots GROUP BY voter),
	eligible AS (
		SELECT p.address, count(*)::integer AS eligible_proposals
		FROM member_eligibility_counted c CROSS JOIN LATERAL (
			SELECT DISTINCT ON (delegate) delegate AS address, votes FROM token_vote_checkpoints
			WHERE block <= c.snapshot ORDER BY delegate, block DESC) p
		WHERE p.votes > 0 GROUP BY p.address),
	members AS (
		SELECT address FROM balances UNION SELECT address FROM delegations
		UNION SELECT delegate FROM delegations WHERE delegate IS NOT NULL
		UNION SELECT address FROM powers UNION SELECT address FROM voted UNION SELECT address FROM sessions)
SELECT m.address, coalesce(p.votes, 0), coalesce(b.balance, 0), d.delegate, coalesce(dc.delegators, 0),
	coalesce(v.votes_cast, 0), coalesce(e.eligible_proposals, 0), v.last_vote_at
FROM members m
	LEFT JOIN powers p ON p.address = m.address
	LEFT JOIN balances b ON b.address = m.address
	LEFT JOIN delegations d ON d.address = m.address
	LEFT JOIN delegator_counts dc ON dc.address = m.address
	LEFT JOIN voted v ON v.address = m.address
	LEFT JOIN eligible e ON e.address = m.address;--> statement-breakpoint
UPDATE "token_index_cursor" SET "total_votes" = (SELECT coalesce(sum("votes"), 0) FROM "member_stats");
