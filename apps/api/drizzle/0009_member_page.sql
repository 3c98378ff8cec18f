DROP INDEX "member_stats_delegate_idx";--> statement-breakpoint
CREATE INDEX "ballots_by_voter_idx" ON "ballots" USING btree ("voter","timestamp" DESC NULLS LAST,"proposal_id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "member_stats_by_delegate_idx" ON "member_stats" USING btree ("delegate","balance" DESC NULLS LAST,"address" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "name_profiles_name_idx" ON "name_profiles" USING btree ("name") WHERE "name_profiles"."name" is not null;--> statement-breakpoint
CREATE INDEX "proposals_by_author_idx" ON "proposals" USING btree ("author","start" DESC NULLS LAST,"id" DESC NULLS LAST);