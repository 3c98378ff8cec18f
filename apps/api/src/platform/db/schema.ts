// The database schema (ADR 007). One pg-core schema for both backends (PGlite and PostgreSQL); the
// migrations in apps/api/drizzle/ are generated from this file (`npm run db:generate`) and committed.
import type {
  DelegateStatementMessage,
  LogEntryKind,
  ModerationActionJson,
  ProposalMessage,
  SafeTransactionJson,
  TallyJson,
  VoteMessage,
} from '@guildhall/core'
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core'

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** Sign-in nonces: bound to the hash of the pre-auth cookie, single use, short-lived. */
export const authNonces = pgTable(
  'auth_nonces',
  {
    nonce: text('nonce').primaryKey(),
    preauthHash: text('preauth_hash').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [index('auth_nonces_expires_at_idx').on(table.expiresAt)],
)

/** Server sessions: the cookie holds a random token, only its SHA-256 is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_unique'),
    /** EIP-55 checksummed address, as verified at sign-in. */
    address: text('address').notNull(),
    chainId: integer('chain_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: timestamptz('idle_expires_at').notNull(),
    absoluteExpiresAt: timestamptz('absolute_expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** Capped in the application before insert. */
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_address_idx').on(table.address)],
)

// The governance token index (apps/api/src/token/token-index.ts). Block numbers fit a JavaScript number;
// token amounts are uint256, hence numeric(78). Addresses are EIP-55 checksummed.
const blockNumber = (name: string) => bigint(name, { mode: 'number' })
const uint256 = (name: string) => numeric(name, { precision: 78, scale: 0, mode: 'bigint' })

/**
 * Where the index stands: every event of `token` on `chainId` from `fromBlock` through `block` is applied.
 * One row; another token, chain or start block in the configuration resets the index.
 */
export const tokenIndexCursor = pgTable('token_index_cursor', {
  id: text('id').primaryKey(),
  chainId: integer('chain_id').notNull(),
  token: text('token').notNull(),
  fromBlock: blockNumber('from_block').notNull(),
  /** fromBlock − 1 until the first range is applied. */
  block: blockNumber('block').notNull(),
  /** The hash of `block` as indexed (null before the first range): a different hash on the chain = reorg. */
  blockHash: text('block_hash'),
  /** The time of `block` (unix seconds); null before the first range and after a rewind. */
  blockTime: bigint('block_time', { mode: 'number' }),
  /** Every delegate's votes at `block` added up (the directory's share of voting power), moved with each range. */
  totalVotes: uint256('total_votes').notNull().default(sql`0`),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
})

/** Hashes of the newest indexed blocks (range ends and blocks with events), to find a reorg's fork point. */
export const tokenIndexBlocks = pgTable('token_index_blocks', {
  number: blockNumber('number').primaryKey(),
  hash: text('hash').notNull(),
})

/** An account's token balance after `block`, for every block in which it changed. */
export const tokenBalanceCheckpoints = pgTable(
  'token_balance_checkpoints',
  {
    account: text('account').notNull(),
    block: blockNumber('block').notNull(),
    balance: uint256('balance').notNull(),
  },
  (table) => [primaryKey({ columns: [table.account, table.block] })],
)

/** Whom `delegator` delegates to after `block` (DelegateChanged), for every block in which it changed. */
export const tokenDelegateChanges = pgTable(
  'token_delegate_changes',
  {
    delegator: text('delegator').notNull(),
    block: blockNumber('block').notNull(),
    delegate: text('delegate').notNull(),
  },
  (table) => [primaryKey({ columns: [table.delegator, table.block] })],
)

/** A delegate's votes after `block` (DelegateVotesChanged newVotes): the token's own vote checkpoints, dated. */
export const tokenVoteCheckpoints = pgTable(
  'token_vote_checkpoints',
  {
    delegate: text('delegate').notNull(),
    block: blockNumber('block').notNull(),
    votes: uint256('votes').notNull(),
    /** The block's time (unix seconds), for dating a member's voting power over time. */
    blockTime: bigint('block_time', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.delegate, table.block] })],
)

// The treasury index (apps/api/src/treasury/, ADR 049): the DAO's Safe's history, and the daily balances and
// monthly flows the charts read. Native coin: token null in treasury_events, '' in the figures' keys.

/**
 * Where the treasury index stands: every Safe event and followed-token Transfer of `safe` on `chainId` from
 * `fromBlock` through `block` is in treasury_events. One row; another Safe, chain, token list or start block
 * resets the index.
 */
export const treasuryCursor = pgTable('treasury_cursor', {
  id: text('id').primaryKey(),
  chainId: integer('chain_id').notNull(),
  safe: text('safe').notNull(),
  /** The followed tokens, `,`-joined, as configured. */
  tokens: text('tokens').notNull(),
  fromBlock: blockNumber('from_block').notNull(),
  /** fromBlock − 1 until the first range is applied. */
  block: blockNumber('block').notNull(),
  blockHash: text('block_hash'),
  /** The Safe's nonce after `block` (the next execution's); null before the first range. */
  nextNonce: bigint('next_nonce', { mode: 'number' }),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
})

/** Hashes of the treasury index's newest blocks, to find a reorg's fork point. */
export const treasuryBlocks = pgTable('treasury_blocks', {
  number: blockNumber('number').primaryKey(),
  hash: text('hash').notNull(),
})

/**
 * One row per history item, newest first by (block, log_index, sub). `sub` numbers the moves decoded from one
 * execution's batch (0: the log's own row); an unexplained row has log_index −1.
 */
export const treasuryEvents = pgTable(
  'treasury_events',
  {
    block: blockNumber('block').notNull(),
    logIndex: integer('log_index').notNull(),
    sub: integer('sub').notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    transactionHash: text('transaction_hash'),
    /** incoming, outgoing, settings, execution, execution-failed, unexplained. */
    kind: text('kind').notNull(),
    /** For the balance: +1 money in, −1 money out, 0 nothing moved. */
    sign: integer('sign').notNull(),
    token: text('token'),
    amount: uint256('amount'),
    counterparty: text('counterparty'),
    detail: text('detail').notNull(),
    safeTxHash: text('safe_tx_hash'),
    safeNonce: bigint('safe_nonce', { mode: 'number' }),
  },
  (table) => [
    primaryKey({ columns: [table.block, table.logIndex, table.sub] }),
    index('treasury_events_kind_idx').on(table.kind, table.block, table.logIndex, table.sub),
    index('treasury_events_token_idx').on(table.token, table.block, table.logIndex, table.sub),
    index('treasury_events_timestamp_idx').on(table.timestamp),
    index('treasury_events_safe_tx_hash_idx').on(table.safeTxHash),
  ],
)

/** The Safe's balance of a token ('' native) at the end of each day (unix seconds of its start, UTC) it changed. */
export const treasuryDailyBalances = pgTable(
  'treasury_daily_balances',
  {
    token: text('token').notNull(),
    day: bigint('day', { mode: 'number' }).notNull(),
    balance: uint256('balance').notNull(),
  },
  (table) => [primaryKey({ columns: [table.token, table.day] })],
)

/** Money in and out of the Safe per token ('' native) and month (YYYY-MM, UTC). */
export const treasuryMonthlyFlows = pgTable(
  'treasury_monthly_flows',
  {
    token: text('token').notNull(),
    month: text('month').notNull(),
    incoming: uint256('incoming').notNull(),
    outgoing: uint256('outgoing').notNull(),
  },
  (table) => [primaryKey({ columns: [table.token, table.month] })],
)

/** The Safe's balance of each followed token ('' native) before the start block, and after the cursor's block. */
export const treasuryBalances = pgTable('treasury_balances', {
  token: text('token').primaryKey(),
  start: uint256('start').notNull(),
  balance: uint256('balance').notNull(),
})

// Governance: signed proposals and votes as they were signed, the vote that counts per voter, and
// the hash-chained log of everything accepted. Ids are EIP-712 digests (0x + 64 lower-case hex).

/** Accepted proposals; `message` is the signed JSON message exactly as verified. */
export const proposals = pgTable(
  'proposals',
  {
    id: text('id').primaryKey(),
    author: text('author').notNull(),
    start: bigint('start', { mode: 'number' }).notNull(),
    end: bigint('end', { mode: 'number' }).notNull(),
    snapshot: blockNumber('snapshot').notNull(),
    message: jsonb('message').$type<ProposalMessage>().notNull(),
    signature: text('signature').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    index('proposals_end_idx').on(table.end),
    // The proposal list's order, latest start first (governance/proposal-list.ts).
    index('proposals_by_start_idx').on(table.start.desc(), table.id.desc()),
    // A member's proposals in the same order (members/member-page.ts).
    index('proposals_by_author_idx').on(table.author, table.start.desc(), table.id.desc()),
  ],
)

/** Accepted votes, replaced ones included (the history); `power` is the voter's at the snapshot block. */
export const votes = pgTable(
  'votes',
  {
    id: text('id').primaryKey(),
    proposalId: text('proposal_id')
      .notNull()
      .references(() => proposals.id),
    voter: text('voter').notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    message: jsonb('message').$type<VoteMessage>().notNull(),
    signature: text('signature').notNull(),
    power: uint256('power').notNull(),
    /** Where the power was read: the token index, or the chain while the index lagged. */
    powerSource: text('power_source').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
    /** A vote with a reason: its log entry's seq, the place of its card in the proposal's thread; null without a reason. */
    reasonLogSeq: bigint('reason_log_seq', { mode: 'number' }),
  },
  (table) => [
    index('votes_proposal_idx').on(table.proposalId),
    // A proposal's votes with a reason in log order: a page of its thread's vote cards is a range of this
    // index (discussion/thread-items.ts, ADR 053), however many votes the proposal has.
    index('votes_reason_seq_idx')
      .on(table.proposalId, table.reasonLogSeq)
      .where(sql`${table.reasonLogSeq} is not null`),
    // A voter's votes on a proposal: whether a vote card is a re-vote, one seek per card.
    index('votes_by_voter_idx').on(table.proposalId, table.voter),
  ],
)

/** The vote that counts, per voter and proposal (latest timestamp, then lower id: `supersedes`). */
export const ballots = pgTable(
  'ballots',
  {
    proposalId: text('proposal_id')
      .notNull()
      .references(() => proposals.id),
    voter: text('voter').notNull(),
    voteId: text('vote_id')
      .notNull()
      .references(() => votes.id),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    /** The counting vote's power, copied so the votes list pages by power on an index. */
    power: uint256('power').notNull(),
    /**
     * A ranked-choice ballot's ranking (the vote's choices, first preference first), copied so a settle of the
     * rounds reads the ballots alone, in primary-key order (ADR 060); null on every other kind.
     */
    ranking: integer('ranking').array(),
  },
  (table) => [
    primaryKey({ columns: [table.proposalId, table.voter] }),
    // The votes list's two orders, newest or heaviest first, the voter breaking ties (governance/vote-list.ts).
    index('ballots_by_power_idx').on(table.proposalId, table.power.desc(), table.voter.desc()),
    index('ballots_by_time_idx').on(table.proposalId, table.timestamp.desc(), table.voter.desc()),
    // A member's votes across proposals, newest first (members/member-page.ts).
    index('ballots_by_voter_idx').on(table.voter, table.timestamp.desc(), table.proposalId.desc()),
  ],
)

/**
 * A proposal's tally totals (`TallyTotals`), moved in each vote's transaction under this row's lock: the page
 * reads one row, and `npm run tallies:check` proves it equal to a recount of the ballots.
 */
export const proposalTallies = pgTable('proposal_tallies', {
  proposalId: text('proposal_id')
    .primaryKey()
    .references(() => proposals.id),
  voters: integer('voters').notNull(),
  votingPower: uint256('voting_power').notNull(),
  quorumPower: uint256('quorum_power').notNull(),
  /** Power per choice as decimal strings, index 0 = choice 1. */
  perChoice: jsonb('per_choice').$type<string[]>().notNull(),
  /** The log entry of the last message counted in, so an export can stop exactly where these totals stand. */
  lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
})

/**
 * Accepted delegate statements, every version kept; the latest (`supersedes`: later timestamp, then lower
 * id) is the delegate's statement. `message` is the signed JSON message exactly as verified.
 */
export const delegateStatements = pgTable(
  'delegate_statements',
  {
    id: text('id').primaryKey(),
    delegate: text('delegate').notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    message: jsonb('message').$type<DelegateStatementMessage>().notNull(),
    signature: text('signature').notNull(),
    receivedAt: timestamptz('received_at').notNull().defaultNow(),
  },
  // A delegate's latest first, in the order `supersedes` decides (members/statements.ts).
  (table) => [index('delegate_statements_latest_idx').on(table.delegate, table.timestamp.desc(), table.id)],
)

/** Every accepted proposal, vote and statement, each entry carrying the previous entry's hash (`logEntryHash`). */
export const governanceLog = pgTable(
  'governance_log',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    kind: text('kind').$type<LogEntryKind>().notNull(),
    /** Unique with `kind`: a takedown's entry names the message it removed the text of (ADR 054). */
    messageId: text('message_id').notNull(),
    /**
     * The proposal the message belongs to (its own id for a proposal), for a proposal's export bundle; null
     * for a statement, which belongs to none.
     */
    proposalId: text('proposal_id'),
    signature: text('signature').notNull(),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [
    // A proposal's entries in order (the bundle's pages, its vote count): a seek, not a sort of all of them.
    index('governance_log_proposal_seq_idx').on(table.proposalId, table.seq),
    // Each message is logged once, and at most once taken down; a lookup by message id seeks its first column.
    uniqueIndex('governance_log_message_kind_unique').on(table.messageId, table.kind),
  ],
)

// Execution (ADR 051): the Safe transactions the app queued for passed proposals, and the owners' signatures.

/** Where a queued Safe transaction ended: still queued, executed by the Safe, or its nonce used by another. */
export type SafeExecutionState = 'queued' | 'executed' | 'superseded'

/**
 * A passed proposal's Safe transaction, derived from its signed actions at a nonce. A proposal has at most one
 * `queued` entry; a superseded one stays as its history.
 */
export const safeExecutions = pgTable(
  'safe_executions',
  {
    safeTxHash: text('safe_tx_hash').primaryKey(),
    proposalId: text('proposal_id')
      .notNull()
      .references(() => proposals.id),
    safe: text('safe').notNull(),
    nonce: bigint('nonce', { mode: 'number' }).notNull(),
    transaction: jsonb('transaction').$type<SafeTransactionJson>().notNull(),
    domainHash: text('domain_hash').notNull(),
    messageHash: text('message_hash').notNull(),
    state: text('state').$type<SafeExecutionState>().notNull(),
    /** The block the Safe's nonce was read at when queueing, and that nonce: executions after it count from there. */
    queuedBlock: blockNumber('queued_block').notNull(),
    safeNonceAtQueue: bigint('safe_nonce_at_queue', { mode: 'number' }).notNull(),
    queuedAt: timestamptz('queued_at').notNull().defaultNow(),
    /** The transaction that used the nonce (this one's execution, or the one that superseded it). */
    outcomeTransaction: text('outcome_transaction'),
    outcomeSafeTxHash: text('outcome_safe_tx_hash'),
    outcomeBlock: blockNumber('outcome_block'),
    outcomeTimestamp: bigint('outcome_timestamp', { mode: 'number' }),
  },
  (table) => [
    uniqueIndex('safe_executions_one_queued_idx').on(table.proposalId).where(sql`${table.state} = 'queued'`),
    index('safe_executions_proposal_idx').on(table.proposalId, table.queuedAt),
    // The next free nonce: the highest one the app queued for the Safe.
    index('safe_executions_safe_nonce_idx').on(table.safe, table.nonce),
  ],
)

/** An owner's signature of a queued Safe transaction, as execTransaction takes it; logged as entry `log_seq`. */
export const safeSignatures = pgTable(
  'safe_signatures',
  {
    safeTxHash: text('safe_tx_hash')
      .notNull()
      .references(() => safeExecutions.safeTxHash),
    owner: text('owner').notNull(),
    signature: text('signature').notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.safeTxHash, table.owner] })],
)

/**
 * Rate-limit counters shared by every API instance on one PostgreSQL database (ADR 022, ADR 077;
 * platform/http/rate-limit-store.ts): `route:client` key, points used in the window, the window's end (epoch
 * ms, the database's clock). Unused on PGlite, where one process counts in memory.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
})

/**
 * Names and avatars resolved on Ethereum's ENS (names/profiles.ts, names/name-refresher.ts), one row per
 * address asked about. The table is also the refresh queue: `requested_at` is set when a reader finds the
 * row missing or expired, and cleared by the leader's refresh, so any instance can queue and one resolves.
 */
export const nameProfiles = pgTable(
  'name_profiles',
  {
    /** EIP-55 checksummed. */
    address: text('address').primaryKey(),
    /** The primary name, forward-checked and normalized; null when there is none (a cached negative). */
    name: text('name'),
    /** The name's `avatar` text record as stored on chain. */
    avatarRecord: text('avatar_record'),
    /**
     * The record's image on the configured gateway (avatar-url.ts), null when it has none or the gateway
     * does not serve an image there. Given to readers only while it is still what the gateways in the
     * settings derive.
     */
    avatarUrl: text('avatar_url'),
    /** Null until the first lookup has answered. */
    resolvedAt: timestamptz('resolved_at'),
    expiresAt: timestamptz('expires_at').notNull(),
    /** When a reader queued it for a lookup; null when nothing is queued. */
    requestedAt: timestamptz('requested_at'),
  },
  (table) => [
    index('name_profiles_requested_at_idx')
      .on(table.requestedAt)
      .where(sql`${table.requestedAt} is not null`),
    // The members directory's search by the start of a name, in any case (members/member-list.ts), and a
    // member page opened by name (members/member-page.ts, an equality on the same expression). Not
    // partial: the planner estimates a prefix's matches only from a whole index's statistics, and picks the
    // order's index for a prefix most names share, this one for a rare prefix.
    index('name_profiles_name_prefix_idx').using('btree', sql`lower(${table.name}) text_pattern_ops`),
  ],
)

/**
 * The members directory (members/member-list.ts, ADRs 030, 037): one row per account the token index
 * touched (holder, delegate, delegator) or voter, so a page is an index seek; signing in adds none. The token
 * index moves `votes`, `balance`, `delegate` and `delegators` in the transaction of each range it applies,
 * and counts `eligibleProposals` once the index passes a proposal's snapshot; the vote transaction moves
 * `votesCast` and `lastVoteAt`.
 * `npm run tallies:check` proves the rows equal to a recount from the index and the ballots.
 */
export const memberStats = pgTable(
  'member_stats',
  {
    /** EIP-55 checksummed. */
    address: text('address').primaryKey(),
    /** Voting power at the indexed block (the token's getVotes). */
    votes: uint256('votes').notNull().default(sql`0`),
    /** Tokens held at the indexed block. */
    balance: uint256('balance').notNull().default(sql`0`),
    /** Whom this member delegates to; null: nobody. */
    delegate: text('delegate'),
    /** Other accounts holding tokens that delegate to this member. */
    delegators: integer('delegators').notNull().default(0),
    /** Proposals with a ballot of this member. */
    votesCast: integer('votes_cast').notNull().default(0),
    /** Proposals whose snapshot the index has passed at which this member had voting power. */
    eligibleProposals: integer('eligible_proposals').notNull().default(0),
    /** votesCast / eligibleProposals in millionths (capped at 1,000,000), 0 when there were none: the sort key. */
    participation: integer('participation')
      .notNull()
      .generatedAlwaysAs(
        sql`case when eligible_proposals = 0 then 0 else least(1000000, votes_cast::bigint * 1000000 / eligible_proposals)::integer end`,
      ),
    /** The timestamp of this member's latest vote (unix seconds). */
    lastVoteAt: bigint('last_vote_at', { mode: 'number' }),
    /**
     * Whether the directory lists the member (ADR 037): they hold tokens, have voting power or delegators, or
     * voted. A row with none of these (an account a transfer of nothing touched, a former holder) is found
     * only by its full address.
     */
    listed: boolean('listed')
      .notNull()
      .generatedAlwaysAs(sql`votes > 0 or balance > 0 or delegators > 0 or votes_cast > 0`),
  },
  (table) => [
    // The directory's three orders, the address breaking ties (members/member-list.ts), over the listed
    // members only: rows with nothing, however many, cost a page nothing.
    index('member_stats_by_votes_idx')
      .on(table.votes.desc(), table.address.desc())
      .where(sql`${table.listed}`),
    index('member_stats_by_delegators_idx')
      .on(table.delegators.desc(), table.votes.desc(), table.address.desc())
      .where(sql`${table.listed}`),
    index('member_stats_by_participation_idx')
      .on(table.participation.desc(), table.votes.desc(), table.address.desc())
      .where(sql`${table.listed}`),
    // Search by the start of an address, in any case.
    index('member_stats_address_prefix_idx').using('btree', sql`lower(${table.address}) text_pattern_ops`),
    // A delegate's delegators: counted by the index, listed most tokens first on the member page.
    index('member_stats_by_delegate_idx').on(table.delegate, table.balance.desc(), table.address.desc()),
  ],
)

/**
 * Proposals whose eligible members the token index counts into `member_stats.eligible_proposals` (once the
 * index passed their snapshot), a chunk of members by address at a time (ADR 033); a rewind below a
 * snapshot removes the row and recounts.
 */
export const memberEligibilityCounted = pgTable('member_eligibility_counted', {
  proposalId: text('proposal_id')
    .primaryKey()
    .references(() => proposals.id),
  snapshot: blockNumber('snapshot').notNull(),
  /**
   * Every member is counted. The counter inserts false; the default is for rows from before counting in
   * chunks, each counted whole in one statement.
   */
  done: boolean('done').notNull().default(true),
  /** While not done: the last address counted so far (members at or below it are counted); null: none yet. */
  countedThrough: text('counted_through'),
})

export const schema = {
  authNonces,
  proposals,
  votes,
  ballots,
  proposalTallies,
  delegateStatements,
  governanceLog,
  sessions,
  tokenIndexCursor,
  tokenIndexBlocks,
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenVoteCheckpoints,
  rateLimits,
  nameProfiles,
  memberStats,
  memberEligibilityCounted,
  treasuryCursor,
  treasuryBlocks,
  treasuryEvents,
  treasuryDailyBalances,
  treasuryMonthlyFlows,
  treasuryBalances,
}
export type Schema = typeof schema
export type Session = typeof sessions.$inferSelect
export type NewSession = typeof sessions.$inferInsert
/** A signed proposal as stored (its message, signature and the figures read from it). */
export type StoredProposal = typeof proposals.$inferSelect

// Discussion (issue 24, ADR 053; part `discussion-api`): keys, every key-signed message, threads, topics,
// comments and their versions, reactions, flags and visits. The columns marked (M) are written by moderation.

/** A browser key a member authorised with their wallet (`DiscussionKey`), and its revocation. */
export const discussionKeys = pgTable(
  'discussion_keys',
  {
    /** The key's address, EIP-55 checksummed. */
    key: text('key').primaryKey(),
    member: text('member').notNull(),
    scopes: text('scopes').array().notNull(),
    /** Unix seconds. */
    expires: bigint('expires', { mode: 'number' }).notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    /** The authorisation's digest, its log entry's message id. */
    id: text('id').notNull().unique('discussion_keys_id_unique'),
    message: jsonb('message').$type<Record<string, unknown>>().notNull(),
    signature: text('signature').notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
    revokedSeq: bigint('revoked_seq', { mode: 'number' }),
    /** Unix seconds (the revocation's timestamp). */
    revokedAt: bigint('revoked_at', { mode: 'number' }),
  },
  // A member's keys, newest first.
  (table) => [index('discussion_keys_member_idx').on(table.member, table.timestamp.desc())],
)

/**
 * Every key-signed message as signed (topics, comments and edits, withdrawals, reactions, flags, moderation):
 * the source of a thread's bundle. Only the operator's takedown removes a body from `message`.
 */
export const discussionMessages = pgTable(
  'discussion_messages',
  {
    /** The message's digest (a version id for an edit). */
    id: text('id').primaryKey(),
    kind: text('kind').$type<LogEntryKind>().notNull(),
    /** The thread it belongs to; null for a key revocation by the key. */
    threadId: text('thread_id'),
    author: text('author').notNull(),
    /** The key that signed it. */
    key: text('key').notNull(),
    message: jsonb('message').$type<Record<string, unknown>>().notNull(),
    signature: text('signature').notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull().unique('discussion_messages_log_seq_unique'),
    /** (M) Unix seconds of the operator's takedown. */
    takenDownAt: bigint('taken_down_at', { mode: 'number' }),
    /** (M) */
    takedownReason: text('takedown_reason'),
  },
  // A thread's messages in log order (the bundle's pages).
  (table) => [index('discussion_messages_thread_idx').on(table.threadId, table.logSeq)],
)

/** One per proposal (created with it) and per topic: counts, latest activity, and its lock (M). */
export const threads = pgTable(
  'threads',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<'proposal' | 'topic'>().notNull(),
    proposalId: text('proposal_id'),
    topicId: text('topic_id'),
    /** Comments, withdrawn and hidden ones included. */
    commentCount: integer('comment_count').notNull().default(0),
    /** The log seq of the latest entry touching the thread. */
    lastActivitySeq: bigint('last_activity_seq', { mode: 'number' }).notNull(),
    /** (M) The moderator who locked it; null: not locked. */
    lockedBy: text('locked_by'),
    /** (M) */
    lockedReason: text('locked_reason'),
    /** (M) Unix seconds. */
    lockedAt: bigint('locked_at', { mode: 'number' }),
    /** (M) */
    lockedSeq: bigint('locked_seq', { mode: 'number' }),
  },
  // The topics list, latest activity first (discussion/topics.ts).
  (table) => [index('threads_by_activity_idx').on(table.kind, table.lastActivitySeq.desc(), table.id.desc())],
)

/** A free topic (its id is its `Topic` digest and its thread's id); `proposalId` once a proposal links it. */
export const topics = pgTable(
  'topics',
  {
    id: text('id').primaryKey(),
    author: text('author').notNull(),
    category: text('category').notNull(),
    title: text('title').notNull(),
    /** Null once taken down. */
    body: text('body'),
    mentions: text('mentions').array().notNull(),
    /** Unix seconds (the signed timestamp). */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
    proposalId: text('proposal_id'),
  },
  // A proposal's thread names the topic it was made from.
  (table) => [index('topics_proposal_idx').on(table.proposalId)],
)

/**
 * A comment as it reads now (its id is its first version's digest). `path` is the zero-padded log seqs of its
 * ancestors and itself, so a thread in tree order is one index range (ADR 053).
 */
export const comments = pgTable(
  'comments',
  {
    id: text('id').primaryKey(),
    threadId: text('thread_id').notNull(),
    parentId: text('parent_id'),
    depth: integer('depth').notNull(),
    path: text('path').notNull(),
    author: text('author').notNull(),
    /** The latest version's; null once taken down. */
    body: text('body'),
    mentions: text('mentions').array().notNull(),
    versionId: text('version_id').notNull(),
    versions: integer('versions').notNull().default(1),
    /** Unix seconds (signed timestamps of the first and the latest version). */
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    editedAt: bigint('edited_at', { mode: 'number' }),
    /** The first version's. */
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
    withdrawnSeq: bigint('withdrawn_seq', { mode: 'number' }),
    /** (M) The moderator; null with `hiddenAuto` (flags) or when shown. */
    hiddenBy: text('hidden_by'),
    /** (M) */
    hiddenReason: text('hidden_reason'),
    /** (M) Unix seconds. */
    hiddenAt: bigint('hidden_at', { mode: 'number' }),
    /** (M) */
    hiddenSeq: bigint('hidden_seq', { mode: 'number' }),
    /** (M) Hidden by flags until a moderator decides. */
    hiddenAuto: boolean('hidden_auto').notNull().default(false),
    /** (M) */
    flagCount: integer('flag_count').notNull().default(0),
  },
  // The thread's page in tree order: a range of this index (discussion/thread-items.ts).
  (table) => [uniqueIndex('comments_thread_path_idx').on(table.threadId, table.path)],
)

/** Every version of a comment (the first included), for "edited" and the versions list. */
export const commentVersions = pgTable(
  'comment_versions',
  {
    versionId: text('version_id').primaryKey(),
    commentId: text('comment_id').notNull(),
    /** Null once taken down. */
    body: text('body'),
    mentions: text('mentions').array().notNull(),
    timestamp: bigint('timestamp', { mode: 'number' }).notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
  },
  (table) => [index('comment_versions_comment_idx').on(table.commentId, table.logSeq)],
)

/** A member's reaction on a comment or topic: the latest `Reaction` message (on or off). */
export const reactions = pgTable(
  'reactions',
  {
    targetId: text('target_id').notNull(),
    author: text('author').notNull(),
    reaction: text('reaction').notNull(),
    on: boolean('on').notNull(),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.targetId, table.author, table.reaction] })],
)

/** (M) A member's flag of a comment, with their power when they flagged it. */
export const commentFlags = pgTable(
  'comment_flags',
  {
    commentId: text('comment_id').notNull(),
    author: text('author').notNull(),
    reason: text('reason').notNull(),
    power: uint256('power').notNull(),
    /**
     * The token index's block the power was read at, so a thread recount can read it again from the chain;
     * null for flags stored before it was kept (migration 0022).
     */
    powerBlock: bigint('power_block', { mode: 'number' }),
    logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.commentId, table.author] })],
)

/** The log seq a signed-in member last saw of a thread ("new since your last visit"). */
export const threadVisits = pgTable(
  'thread_visits',
  {
    member: text('member').notNull(),
    threadId: text('thread_id').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.member, table.threadId] })],
)

// Moderation (issue 24, ADR 054; part `moderation`): the public log of moderation actions.

/**
 * Every moderation action, one per log entry: a moderator's signed hide, unhide, lock or unlock (its
 * `Moderation` message), a hide by members' flags (the flag that reached the threshold) and an operator's
 * takedown. `GET /api/moderation` pages it newest first on the primary key.
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    logSeq: bigint('log_seq', { mode: 'number' }).primaryKey(),
    /** The logged message's id: the `Moderation`, the `Flag` that hid, or the message taken down. */
    id: text('id').notNull(),
    kind: text('kind').$type<ModerationActionJson['kind']>().notNull(),
    /** Null for a hide by flags and a takedown. */
    moderator: text('moderator'),
    /** A comment (hide, unhide, auto-hide, takedown), a thread (lock, unlock) or a topic (takedown). */
    target: text('target').notNull(),
    threadId: text('thread_id').notNull(),
    reason: text('reason').notNull(),
    /** Unix seconds: the signed timestamp, or the server's clock for a hide by flags and a takedown. */
    at: bigint('at', { mode: 'number' }).notNull(),
  },
  // Whether a moderator has decided on a comment (flags then no longer hide it).
  (table) => [index('moderation_actions_target_idx').on(table.target, table.logSeq)],
)
// Notifications (ADR 055): the events outgoing webhooks are sent, each target's deliveries, and how far the
// events have read the governance log.

/** How far webhook events have read the governance log, and since when the clock's events count. One row (id 1). */
export const webhookCursor = pgTable('webhook_cursor', {
  id: integer('id').primaryKey(),
  /** The last governance log entry turned into events (or found to need none). */
  logSeq: bigint('log_seq', { mode: 'number' }).notNull(),
  /**
   * When webhooks were first run: a proposal that started, neared its end or closed before it is history, not
   * news, and sends nothing.
   */
  clockSince: timestamptz('clock_since').notNull(),
})

/**
 * One event, once: its id is the log entry's seq and the event type (`12:proposal.created`), or for an event of
 * the clock or the chain what it is about and the type (`0xabc…:proposal.closed`), so however often a leader
 * derives it, it is stored once. `payload` is the standard preset's body.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
  },
  (table) => [index('webhook_events_created_idx').on(table.createdAt)],
)

export type WebhookDeliveryState = 'pending' | 'delivered' | 'failed'

/** An event's delivery to one webhook (named in WEBHOOKS): its attempts and when the next is due. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    webhook: text('webhook').notNull(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    state: text('state').$type<WebhookDeliveryState>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    /** The last attempt's HTTP status (null: no answer) and what went wrong, for the operator's CLI. */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    deliveredAt: timestamptz('delivered_at'),
  },
  (table) => [
    primaryKey({ columns: [table.webhook, table.eventId] }),
    // The leader's queue: due pending deliveries, oldest first.
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.state} = 'pending'`),
    // The CLI's log, newest first.
    index('webhook_deliveries_created_idx').on(table.createdAt),
  ],
)

/** A webhook its receiver answered 410 Gone: nothing more is sent to that URL (a new URL under the name is sent again). */
export const webhookDisabled = pgTable('webhook_disabled', {
  webhook: text('webhook').primaryKey(),
  /** SHA-256 of the URL that answered 410, so the URL itself (a Discord or Slack secret) is not stored. */
  urlHash: text('url_hash').notNull(),
  status: integer('status').notNull(),
  at: timestamptz('at').notNull().defaultNow(),
})

// Voting kinds (issue 25, ADR 060; part `voting-api`): the settled rounds of ranked-choice proposals.

/**
 * A ranked-choice proposal's result with its rounds, settled from every ballot's ranking in one snapshot
 * (`governance/ranked-results.ts`): the rounds cannot move per vote as the other kinds' totals do, so a read
 * takes this row and a settle moves it forward only (`as_of_seq`, the tally row's `last_seq` it stands at).
 */
export const rankedResults = pgTable('ranked_results', {
  proposalId: text('proposal_id')
    .primaryKey()
    .references(() => proposals.id),
  asOfSeq: bigint('as_of_seq', { mode: 'number' }).notNull(),
  result: jsonb('result').$type<TallyJson>().notNull(),
  /** When it was last settled, or claimed for a settle (the server's clock): at most one settle per interval. */
  settledAt: timestamptz('settled_at').notNull(),
})
