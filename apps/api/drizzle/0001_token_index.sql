CREATE TABLE "token_balance_checkpoints" (
	"account" text NOT NULL,
	"block" bigint NOT NULL,
	"balance" numeric(78, 0) NOT NULL,
	CONSTRAINT "token_balance_checkpoints_account_block_pk" PRIMARY KEY("account","block")
);
--> statement-breakpoint
CREATE TABLE "token_delegate_changes" (
	"delegator" text NOT NULL,
	"block" bigint NOT NULL,
	"delegate" text NOT NULL,
	CONSTRAINT "token_delegate_changes_delegator_block_pk" PRIMARY KEY("delegator","block")
);
--> statement-breakpoint
CREATE TABLE "token_index_blocks" (
	"number" bigint PRIMARY KEY NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_index_cursor" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"token" text NOT NULL,
	"from_block" bigint NOT NULL,
	"block" bigint NOT NULL,
	"block_hash" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_vote_checkpoints" (
	"delegate" text NOT NULL,
	"block" bigint NOT NULL,
	"votes" numeric(78, 0) NOT NULL,
	CONSTRAINT "token_vote_checkpoints_delegate_block_pk" PRIMARY KEY("delegate","block")
);
