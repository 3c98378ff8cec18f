CREATE TABLE "delegate_statements" (
	"id" text PRIMARY KEY NOT NULL,
	"delegate" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "governance_log" ALTER COLUMN "proposal_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "delegate_statements_latest_idx" ON "delegate_statements" USING btree ("delegate","timestamp" DESC NULLS LAST,"id");