-- The treasury index (ADR 049): its cursor and block hashes, one row per history item, the daily balances
-- and monthly flows the charts read, and the balances it carries from range to range.
CREATE TABLE "treasury_balances" (
	"token" text PRIMARY KEY NOT NULL,
	"start" numeric(78, 0) NOT NULL,
	"balance" numeric(78, 0) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_cursor" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"safe" text NOT NULL,
	"tokens" text NOT NULL,
	"from_block" bigint NOT NULL,
	"block" bigint NOT NULL,
	"block_hash" text,
	"next_nonce" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "treasury_daily_balances" (
	"token" text NOT NULL,
	"day" bigint NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "treasury_daily_balances_token_day_pk" PRIMARY KEY("token","day")
);
--> statement-breakpoint
CREATE TABLE "treasury_events" (
	"block" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"sub" integer NOT NULL,
	"timestamp" bigint NOT NULL,
	"transaction_hash" text,
	"kind" text NOT NULL,
	"sign" integer NOT NULL,
	"token" text,
	"amount" numeric(78, 0),
	"counterparty" text,
	"detail" text NOT NULL,
	"safe_tx_hash" text,
	"safe_nonce" bigint,
	CONSTRAINT "treasury_events_block_log_index_sub_pk" PRIMARY KEY("block","log_index","sub")
);
--> statement-breakpoint
CREATE TABLE "treasury_monthly_flows" (
	"token" text NOT NULL,
	"month" text NOT NULL,
	"incoming" numeric(78, 0) NOT NULL,
	"outgoing" numeric(78, 0) NOT NULL,
	CONSTRAINT "treasury_monthly_flows_token_month_pk" PRIMARY KEY("token","month")
);
--> statement-breakpoint
CREATE INDEX "treasury_events_kind_idx" ON "treasury_events" USING btree ("kind","block","log_index","sub");--> statement-breakpoint
CREATE INDEX "treasury_events_token_idx" ON "treasury_events" USING btree ("token","block","log_index","sub");--> statement-breakpoint
CREATE INDEX "treasury_events_timestamp_idx" ON "treasury_events" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "treasury_events_safe_tx_hash_idx" ON "treasury_events" USING btree ("safe_tx_hash");