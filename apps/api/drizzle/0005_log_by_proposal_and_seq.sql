DROP INDEX "governance_log_proposal_idx";--> statement-breakpoint
CREATE INDEX "governance_log_proposal_seq_idx" ON "governance_log" USING btree ("proposal_id","seq");