-- Vote checkpoints are dated from now on. Those indexed before carry no time: they are dropped, and the
-- index is sent back to its start (a start block no configuration has, so the token index resets itself,
-- its members' rows included, and indexes again with times; reads go to the chain meanwhile).
DELETE FROM "token_vote_checkpoints";--> statement-breakpoint
UPDATE "token_index_cursor" SET "from_block" = -1;--> statement-breakpoint
ALTER TABLE "token_index_cursor" ADD COLUMN "block_time" bigint;--> statement-breakpoint
ALTER TABLE "token_vote_checkpoints" ADD COLUMN "block_time" bigint NOT NULL;
