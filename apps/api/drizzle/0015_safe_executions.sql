CREATE TABLE "safe_executions" (
	"safe_tx_hash" text PRIMARY KEY NOT NULL,
	"proposal_id" text NOT NULL,
	"safe" text NOT NULL,
	"nonce" bigint NOT NULL,
	"transaction" jsonb NOT NULL,
	"domain_hash" text NOT NULL,
	"message_hash" text NOT NULL,
	"state" text NOT NULL,
	"queued_block" bigint NOT NULL,
	"safe_nonce_at_queue" bigint NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome_transaction" text,
	"outcome_safe_tx_hash" text,
	"outcome_block" bigint,
	"outcome_timestamp" bigint
);
--> statement-breakpoint
CREATE TABLE "safe_signatures" (
	"safe_tx_hash" text NOT NULL,
	"owner" text NOT NULL,
	"signature" text NOT NULL,
	"log_seq" bigint NOT NULL,
	CONSTRAINT "safe_signatures_safe_tx_hash_owner_pk" PRIMARY KEY("safe_tx_hash","owner")
);
--> statement-breakpoint
ALTER TABLE "safe_executions" ADD CONSTRAINT "safe_executions_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safe_signatures" ADD CONSTRAINT "safe_signatures_safe_tx_hash_safe_executions_safe_tx_hash_fk" FOREIGN KEY ("safe_tx_hash") REFERENCES "public"."safe_executions"("safe_tx_hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "safe_executions_one_queued_idx" ON "safe_executions" USING btree ("proposal_id") WHERE "safe_executions"."state" = 'queued';--> statement-breakpoint
CREATE INDEX "safe_executions_proposal_idx" ON "safe_executions" USING btree ("proposal_id","queued_at");--> statement-breakpoint
CREATE INDEX "safe_executions_safe_nonce_idx" ON "safe_executions" USING btree ("safe","nonce");