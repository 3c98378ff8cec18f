// The governance token index (docs/architecture.md): balances, delegations and vote checkpoints of the ERC20Votes token,
// followed with eth_getLogs from its deployment block and kept in the database, so "votes / balance /
// delegate of X at block N" are answered locally. Above the indexed block the answer comes from the chain and
// says so (`source: 'chain'`).
//
// Consistency rules:
// - Only blocks at least `confirmations` below the head are indexed; a deeper reorg is found by comparing the
//   stored hash of the last indexed block with the chain's, then rewound to the newest stored block the
//   chain still has (the fork point) and indexed again from there.
// - Each range's rows, the cursor and the members directory's rows (member-stats.ts) are written in one
//   transaction that first locks the cursor row and checks it is where this sync left it: a crash never
//   half-applies a range, and two servers on one database never apply the same range twice.
// - The chain's hash of a range's last block is read before and after its logs, and the cursor block's
//   hash after: if either moved, the logs may come from a fork being replaced and the range is not applied.
import type { AnswerSource } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { and, desc, eq, inArray, lt, lte, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import {
  type Address,
  BaseError,
  BlockNotFoundError,
  getAbiItem,
  getAddress,
  type Hash,
  type Hex,
  HttpRequestError,
  hexToBigInt,
  hexToNumber,
  numberToHex,
  type PublicClient,
  ResponseBodyTooLargeError,
  RpcError,
  type RpcLog,
  RpcRequestError,
  TimeoutError,
  toEventSelector,
  UnknownRpcError,
  zeroAddress,
} from 'viem'
import {
  countEligibleMembers,
  type MemberChanges,
  moveMemberStats,
  rebuildMemberStats,
} from '../member-stats/token-moves.ts'
import type { Db, Tx } from '../platform/db/client.ts'
import {
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenIndexBlocks,
  tokenIndexCursor,
  tokenVoteCheckpoints,
} from '../platform/db/schema.ts'
import { BackgroundLoop } from '../platform/jobs/background-loop.ts'

export type Answer<T> = { value: T; source: AnswerSource }

export type SyncResult = {
  /** Every event up to and including this block is in the index (fromBlock − 1 when none is). */
  indexedBlock: number
  /** The block the sync aimed for: chain head − confirmations. */
  targetBlock: number
  /** Set when a reorg was found: the block the index was rewound to before indexing again. */
  rewoundTo: number | null
}

export type TokenIndexLogger = { warn(details: object, message: string): void }

/**
 * Why an account has no votes at a block, in figures (governance/voting-power.ts words it for the member
 * under the same code, one of core's ZERO_POWER_CODES).
 */
export type ZeroVotesCause =
  | { code: 'no-tokens' }
  /** No tokens at the block, some now (at the indexed block, or the chain's head while the index lags). */
  | { code: 'tokens-after-snapshot'; balanceNow: bigint }
  /** Tokens at the block, delegated to nobody: undelegated tokens count for no one. */
  | { code: 'not-delegated'; balance: bigint }
  /** Tokens at the block, delegated to `delegate`, who votes with them. */
  | { code: 'delegated-to-other'; balance: bigint; delegate: Address }

/** Votes of an account at a block and, when they are zero, why; `source` is 'chain' if any part came from it. */
export type VotesAtBlock = { votes: bigint; source: AnswerSource; zeroCause: ZeroVotesCause | null }

export type TokenIndexOptions = {
  db: Db
  /** The DAO chain: logs and block hashes, and the answers above the indexed block. */
  client: PublicClient
  chainId: number
  token: Address
  /** The token's deployment block: nothing before it is fetched. */
  fromBlock: number
  /** Blocks below the head that count as final; a reorg deeper than this is rewound when found. */
  confirmations: number
  /** Multicall3 on the chain, for reading several answers in one eth_call; absent: deployless multicall. */
  multicall3?: Address | null
  /** Most blocks per eth_getLogs request (halved while the node refuses a range, e.g. too many results). */
  maxRange?: number
  /** Pause between syncs once caught up (the loop of `start()`). */
  pollIntervalMs?: number
  /** Members counted into the directory's participation per transaction (ELIGIBILITY_CHUNK). */
  eligibilityChunk?: number
  logger?: TokenIndexLogger
}

/** eth_getLogs block span per request; providers commonly cap ranges near 10k blocks. */
const DEFAULT_MAX_RANGE = 10_000
/** Successful ranges in a row before a narrowed range is doubled again. */
const RANGE_GROWTH_AFTER = 8
/** Stored block hashes kept for finding a fork point; a reorg deeper than all of them re-indexes from scratch. */
export const RETAINED_BLOCK_HASHES = 256
const DEFAULT_POLL_INTERVAL_MS = 4_000
const MAX_BACKOFF_MS = 60_000
/** Rows per INSERT (3 parameters each, far below PostgreSQL's 65,535). */
const INSERT_CHUNK = 1_000
/** Blocks fetched at once (looking for a fork point, dating vote changes on a node without log times). */
const FORK_SEARCH_CONCURRENCY = 8
const CURSOR_ID = 'governance-token'

const TOKEN_EVENTS = [
  getAbiItem({ abi: governanceTokenAbi, name: 'Transfer' }),
  getAbiItem({ abi: governanceTokenAbi, name: 'DelegateChanged' }),
  getAbiItem({ abi: governanceTokenAbi, name: 'DelegateVotesChanged' }),
] as const

/** The block asked about is after the chain's head: nothing can be known about it yet. */
class FutureBlockError extends Error {
  override name = 'FutureBlockError'
  constructor(
    readonly block: bigint,
    readonly head: bigint,
  ) {
    super(`Block ${block} is after the chain head (${head})`)
  }
}

/** The chain changed under a range while it was read; the range was not applied and the next sync retries. */
class ChainMovedError extends Error {
  override name = 'ChainMovedError'
}

type Cursor = { block: number; blockHash: string | null }

export class TokenIndex {
  readonly #db: Db
  readonly #client: PublicClient
  readonly #chainId: number
  readonly #token: Address
  readonly #fromBlock: number
  readonly #confirmations: number
  readonly #multicall3: Address | null
  readonly #maxRange: number
  readonly #pollIntervalMs: number
  readonly #eligibilityChunk: number | undefined
  readonly #logger: TokenIndexLogger | undefined
  #range: number
  #rangeSuccesses = 0
  #syncing: Promise<SyncResult> | undefined
  readonly #loop: BackgroundLoop

  constructor(options: TokenIndexOptions) {
    if (!Number.isSafeInteger(options.fromBlock) || options.fromBlock < 0)
      throw new RangeError('fromBlock must be a block number')
    if (!Number.isSafeInteger(options.confirmations) || options.confirmations < 0)
      throw new RangeError('confirmations must be a whole number ≥ 0')
    this.#db = options.db
    this.#client = options.client
    this.#chainId = options.chainId
    this.#token = getAddress(options.token)
    this.#fromBlock = options.fromBlock
    this.#confirmations = options.confirmations
    this.#multicall3 = options.multicall3 ? getAddress(options.multicall3) : null
    this.#maxRange = Math.max(1, options.maxRange ?? DEFAULT_MAX_RANGE)
    this.#pollIntervalMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS
    this.#eligibilityChunk = options.eligibilityChunk
    this.#logger = options.logger
    this.#range = this.#maxRange
    this.#loop = new BackgroundLoop({
      pass: async () => {
        const result = await this.syncOnce()
        return result.indexedBlock < result.targetBlock ? 'busy' : 'idle'
      },
      pollMs: this.#pollIntervalMs,
      backoffMs: (failures) => Math.min(this.#pollIntervalMs * 2 ** failures, MAX_BACKOFF_MS),
      onFailure: (error, retryInMs) =>
        this.#logger?.warn({ err: error, retryInMs }, 'token index sync failed'),
    })
  }

  /** Indexes up to head − confirmations (rewinding a reorg first). Concurrent callers share one sync. */
  syncOnce(): Promise<SyncResult> {
    this.#syncing ??= this.#sync().finally(() => {
      this.#syncing = undefined
    })
    return this.#syncing
  }

  /** Syncs in the background until `stop()`: at once while behind, then every poll interval. */
  start(): void {
    this.#loop.start()
  }

  /** Ends the background loop after the range in progress (if any); resolves when nothing is running. */
  async stop(): Promise<void> {
    await this.#loop.stop()
    await this.#syncing?.catch(() => undefined)
  }

  /** The last indexed block (every event up to it is applied), or fromBlock − 1 before the first range. */
  async indexedBlock(): Promise<number> {
    const [row] = await this.#db
      .select({ block: tokenIndexCursor.block })
      .from(tokenIndexCursor)
      .where(this.#ownCursor())
    return row?.block ?? this.#fromBlock - 1
  }

  /** Voting power of `account` after block `block` (what getPastVotes(account, block) answers). */
  async votesAt(account: Address, block: bigint | number): Promise<Answer<bigint>> {
    const n = blockNumber(block)
    const delegate = getAddress(account)
    const indexed = await this.#fromIndex(this.#votesQuery(delegate, n), n)
    if (indexed) return { value: BigInt(indexed.value ?? 0), source: 'index' }
    const head = await this.#chainHead(n)
    const contract = { address: this.#token, abi: governanceTokenAbi } as const
    // getPastVotes reads the token's checkpoints at the head (no archive node needed) but only for past blocks.
    const value =
      n < head
        ? await this.#client.readContract({ ...contract, functionName: 'getPastVotes', args: [delegate, n] })
        : await this.#client.readContract({
            ...contract,
            functionName: 'getVotes',
            args: [delegate],
            blockNumber: n,
          })
    return { value, source: 'chain' }
  }

  /** Token balance of `account` after block `block`. */
  async balanceAt(account: Address, block: bigint | number): Promise<Answer<bigint>> {
    const n = blockNumber(block)
    const holder = getAddress(account)
    const indexed = await this.#fromIndex(this.#balanceQuery(holder, n), n)
    if (indexed) return { value: BigInt(indexed.value ?? 0), source: 'index' }
    await this.#chainHead(n)
    const value = await this.#client.readContract({
      address: this.#token,
      abi: governanceTokenAbi,
      functionName: 'balanceOf',
      args: [holder],
      blockNumber: n,
    })
    return { value, source: 'chain' }
  }

  /** Whom `account` delegates to after block `block` (the zero address: nobody). */
  async delegateAt(account: Address, block: bigint | number): Promise<Answer<Address>> {
    const n = blockNumber(block)
    const delegator = getAddress(account)
    const indexed = await this.#fromIndex(this.#delegateQuery(delegator, n), n)
    if (indexed) return { value: (indexed.value as Address | null) ?? zeroAddress, source: 'index' }
    await this.#chainHead(n)
    const value = await this.#client.readContract({
      address: this.#token,
      abi: governanceTokenAbi,
      functionName: 'delegates',
      args: [delegator],
      blockNumber: n,
    })
    return { value, source: 'chain' }
  }

  /**
   * Votes of `account` at block `block` and, when they are zero, why: no tokens then, tokens that arrived
   * later, tokens not delegated, or delegated to someone else (who is named).
   */
  async votingPower(account: Address, block: bigint | number): Promise<VotesAtBlock> {
    const n = blockNumber(block)
    const holder = getAddress(account)
    const votes = await this.votesAt(holder, n)
    if (votes.value > 0n) return { votes: votes.value, source: votes.source, zeroCause: null }
    const held = await this.#balanceAndDelegateAt(holder, n)
    let source: AnswerSource = votes.source === 'chain' || held.source === 'chain' ? 'chain' : 'index'
    let zeroCause: ZeroVotesCause
    if (held.balance === 0n) {
      const now = await this.#balanceNow(holder, n)
      if (now.source === 'chain') source = 'chain'
      zeroCause =
        now.value > 0n ? { code: 'tokens-after-snapshot', balanceNow: now.value } : { code: 'no-tokens' }
    } else if (held.delegate === zeroAddress) {
      zeroCause = { code: 'not-delegated', balance: held.balance }
    } else {
      zeroCause = { code: 'delegated-to-other', balance: held.balance, delegate: held.delegate }
    }
    return { votes: 0n, source, zeroCause }
  }

  /** Balance and delegate at `block`: both from the index, or both from the chain in one multicall. */
  async #balanceAndDelegateAt(holder: Address, block: bigint) {
    const [balance, delegate] = await Promise.all([
      this.#fromIndex(this.#balanceQuery(holder, block), block),
      this.#fromIndex(this.#delegateQuery(holder, block), block),
    ])
    if (balance && delegate)
      return {
        balance: BigInt(balance.value ?? 0),
        delegate: (delegate.value as Address | null) ?? zeroAddress,
        source: 'index' as const,
      }
    await this.#chainHead(block)
    const contract = { address: this.#token, abi: governanceTokenAbi } as const
    const [chainBalance, chainDelegate] = await this.#client.multicall({
      contracts: [
        { ...contract, functionName: 'balanceOf', args: [holder] },
        { ...contract, functionName: 'delegates', args: [holder] },
      ],
      blockNumber: block,
      allowFailure: false,
      ...(this.#multicall3 ? { multicallAddress: this.#multicall3 } : { deployless: true }),
    })
    return { balance: chainBalance, delegate: chainDelegate, source: 'chain' as const }
  }

  /** The balance now: at the indexed block when that is after `block`, else at the chain's head. */
  async #balanceNow(holder: Address, block: bigint): Promise<Answer<bigint>> {
    const indexed = BigInt(await this.indexedBlock())
    return this.balanceAt(
      holder,
      indexed > block ? indexed : await this.#client.getBlockNumber({ cacheTime: 0 }),
    )
  }

  #votesQuery(delegate: Address, block: bigint) {
    const t = tokenVoteCheckpoints
    return this.#db
      .select({ votes: t.votes })
      .from(t)
      .where(and(eq(t.delegate, delegate), lte(t.block, Number(block))))
      .orderBy(desc(t.block))
      .limit(1)
  }

  #balanceQuery(holder: Address, block: bigint) {
    const t = tokenBalanceCheckpoints
    return this.#db
      .select({ balance: t.balance })
      .from(t)
      .where(and(eq(t.account, holder), lte(t.block, Number(block))))
      .orderBy(desc(t.block))
      .limit(1)
  }

  #delegateQuery(delegator: Address, block: bigint) {
    const t = tokenDelegateChanges
    return this.#db
      .select({ delegate: t.delegate })
      .from(t)
      .where(and(eq(t.delegator, delegator), lte(t.block, Number(block))))
      .orderBy(desc(t.block))
      .limit(1)
  }

  /**
   * Every delegate's votes added up at the indexed block (the directory's shares), and that block's number
   * and time (null after a rewind, until the next range); undefined before the first range.
   */
  async totalVotes(): Promise<
    { totalVotes: bigint; blockNumber: number; blockTime: number | null } | undefined
  > {
    const [row] = await this.#db
      .select({
        block: tokenIndexCursor.block,
        blockTime: tokenIndexCursor.blockTime,
        totalVotes: tokenIndexCursor.totalVotes,
      })
      .from(tokenIndexCursor)
      .where(this.#ownCursor())
    return row && row.block >= this.#fromBlock
      ? { totalVotes: row.totalVotes, blockNumber: row.block, blockTime: row.blockTime }
      : undefined
  }

  /** How many addresses hold a non-zero balance at the indexed block; undefined before the first sync. */
  async holders(): Promise<{ holders: number; blockNumber: number } | undefined> {
    const t = tokenBalanceCheckpoints
    const latest = this.#db
      .selectDistinctOn([t.account], { balance: t.balance })
      .from(t)
      .orderBy(t.account, desc(t.block))
      .as('latest')
    const count = this.#db.select({ count: sql`count(*)` }).from(latest).where(sql`${latest.balance} > 0`)
    const [row] = await this.#db
      .select({ block: tokenIndexCursor.block, holders: sql<string>`(${count})::text` })
      .from(tokenIndexCursor)
      .where(this.#ownCursor())
    if (!row || row.block < this.#fromBlock) return undefined
    return { holders: Number(row.holders), blockNumber: row.block }
  }

  async #sync(): Promise<SyncResult> {
    let cursor = await this.#loadCursor()
    const head = Number(await this.#client.getBlockNumber({ cacheTime: 0 }))
    const targetBlock = head - this.#confirmations
    let rewoundTo: number | null = null
    if (cursor.blockHash !== null && (await this.#hashAt(cursor.block)) !== cursor.blockHash) {
      cursor = await this.#rewind(cursor)
      rewoundTo = cursor.block
    }
    while (cursor.block < targetBlock && !this.#loop.stopping) {
      const next = await this.#indexRange(cursor, targetBlock)
      if (next === 'fork') {
        cursor = await this.#rewind(cursor)
        rewoundTo = cursor.block
      } else {
        cursor = next
      }
    }
    await this.#countEligibleMembers(cursor)
    return { indexedBlock: cursor.block, targetBlock, rewoundTo }
  }

  /**
   * Counts the proposals whose snapshot the index has now reached into the members directory (ADR 030,
   * 033), a chunk of members per transaction, each under the cursor's lock so a rewind cannot interleave;
   * a read only, when there are none. A stop ends it between chunks; the next sync goes on from there.
   */
  async #countEligibleMembers(cursor: Cursor): Promise<void> {
    if (cursor.block < this.#fromBlock) return
    await countEligibleMembers(this.#db, cursor.block, {
      lock: (tx) => lockCursorAt(tx, cursor),
      chunk: this.#eligibilityChunk,
      stopped: () => this.#loop.stopping,
    })
  }

  /** The cursor for this token; created, or reset (all rows dropped) when it was for another configuration. */
  async #loadCursor(): Promise<Cursor> {
    const fresh = {
      id: CURSOR_ID,
      chainId: this.#chainId,
      token: this.#token,
      fromBlock: this.#fromBlock,
      block: this.#fromBlock - 1,
      blockHash: null,
      blockTime: null,
    }
    await this.#db.insert(tokenIndexCursor).values(fresh).onConflictDoNothing()
    const [row] = await this.#db.select().from(tokenIndexCursor).where(eq(tokenIndexCursor.id, CURSOR_ID))
    if (!row) throw new Error('token index cursor missing after insert')
    if (row.chainId === fresh.chainId && row.token === fresh.token && row.fromBlock === fresh.fromBlock)
      return { block: row.block, blockHash: row.blockHash }
    this.#logger?.warn(
      { was: { chainId: row.chainId, token: row.token, fromBlock: row.fromBlock } },
      'token index: another token, chain or start block is configured; indexing from scratch',
    )
    await this.#db.transaction(async (tx) => {
      await tx.select().from(tokenIndexCursor).where(eq(tokenIndexCursor.id, CURSOR_ID)).for('update')
      await deleteRowsAfter(tx, undefined)
      await tx
        .update(tokenIndexCursor)
        .set({ ...fresh, updatedAt: new Date() })
        .where(eq(tokenIndexCursor.id, CURSOR_ID))
    })
    return { block: fresh.block, blockHash: null }
  }

  /** Rewinds to the newest stored block the chain still has (or to the start if none), dropping later rows. */
  async #rewind(cursor: Cursor): Promise<Cursor> {
    const stored = await this.#db
      .select()
      .from(tokenIndexBlocks)
      .where(lte(tokenIndexBlocks.number, cursor.block))
      .orderBy(desc(tokenIndexBlocks.number))
    let fork: Cursor = { block: this.#fromBlock - 1, blockHash: null }
    search: for (let i = 0; i < stored.length; i += FORK_SEARCH_CONCURRENCY) {
      const batch = stored.slice(i, i + FORK_SEARCH_CONCURRENCY)
      const canonical = await Promise.all(batch.map((block) => this.#hashAt(block.number)))
      for (const [j, block] of batch.entries()) {
        if (canonical[j] === block.hash) {
          fork = { block: block.number, blockHash: block.hash }
          break search
        }
      }
    }
    this.#logger?.warn(
      { indexedBlock: cursor.block, forkBlock: fork.block },
      fork.blockHash === null
        ? 'token index: reorg deeper than the stored block hashes; indexing from scratch'
        : 'token index: reorg; rewinding to the fork point',
    )
    const moved = await this.#db.transaction(async (tx) => {
      if (!(await lockCursorAt(tx, cursor))) return true
      await deleteRowsAfter(tx, fork.block)
      await tx
        .update(tokenIndexCursor)
        .set({ block: fork.block, blockHash: fork.blockHash, blockTime: null, updatedAt: new Date() })
        .where(eq(tokenIndexCursor.id, CURSOR_ID))
      return false
    })
    return moved ? this.#loadCursor() : fork
  }

  /**
   * Fetches and applies the next range after `cursor` (at most #range blocks, up to `target`).
   * Returns the new cursor, or 'fork' when the cursor block is no longer on the chain.
   */
  async #indexRange(cursor: Cursor, target: number): Promise<Cursor | 'fork'> {
    const from = cursor.block + 1
    const to = Math.min(target, from + this.#range - 1)
    const endBefore = (await this.#blockAt(to))?.hash ?? null
    let logs: TokenLog[]
    try {
      logs = await fetchTokenLogs(this.#client, this.#token, from, to)
    } catch (error) {
      // The node refused the range (too many results, span too wide, answer too big): try half of it.
      if (to > from && refusedAsTooLarge(error)) {
        this.#range = Math.max(1, Math.floor((to - from + 1) / 2))
        this.#rangeSuccesses = 0
        return cursor
      }
      throw error
    }
    const [end, cursorNow] = await Promise.all([
      this.#blockAt(to),
      cursor.blockHash === null ? null : this.#hashAt(cursor.block),
    ])
    if (cursorNow !== cursor.blockHash) return 'fork'
    const endAfter = end?.hash ?? null
    if (endBefore === null || endAfter === null || endAfter !== endBefore || logs.some((log) => log.removed))
      throw new ChainMovedError(`the chain changed while blocks ${from}–${to} were read`)
    const times = await this.#voteBlockTimes(logs)

    const blockHashes = new Map<number, string>([[to, endAfter]])
    for (const log of logs) blockHashes.set(log.blockNumber, log.blockHash)
    if (blockHashes.get(to) !== endAfter)
      throw new ChainMovedError(`the logs of block ${to} are not from the chain's block ${to}`)

    const moved = await this.#db.transaction(async (tx) => {
      if (!(await lockCursorAt(tx, cursor))) return true
      const votesMoved = await applyLogs(tx, logs, times)
      // Only the newest hashes can be needed for a fork point; older ones would only grow the table.
      const blockRows = [...blockHashes]
        .sort(([a], [b]) => b - a)
        .slice(0, RETAINED_BLOCK_HASHES)
        .map(([number, hash]) => ({ number, hash }))
      await tx.insert(tokenIndexBlocks).values(blockRows)
      await tx
        .delete(tokenIndexBlocks)
        .where(
          lt(
            tokenIndexBlocks.number,
            sql`(select ${tokenIndexBlocks.number} from ${tokenIndexBlocks} order by ${tokenIndexBlocks.number} desc offset ${RETAINED_BLOCK_HASHES - 1} limit 1)`,
          ),
        )
      await tx
        .update(tokenIndexCursor)
        .set({
          block: to,
          blockHash: endAfter,
          blockTime: Number(end?.timestamp),
          totalVotes: sql`${tokenIndexCursor.totalVotes} + ${String(votesMoved)}::numeric`,
          updatedAt: new Date(),
        })
        .where(eq(tokenIndexCursor.id, CURSOR_ID))
      return false
    })
    // Widen a narrowed range again slowly, so a node with a fixed limit does not refuse every other request.
    if (++this.#rangeSuccesses >= RANGE_GROWTH_AFTER) {
      this.#range = Math.min(this.#maxRange, this.#range * 2)
      this.#rangeSuccesses = 0
    }
    // Another server applied this range (or rewound) first: carry on from where it left the cursor.
    return moved ? this.#loadCursor() : { block: to, blockHash: endAfter }
  }

  /** The chain's hash of block `number`; null when the chain has no such block (it is shorter now). */
  async #hashAt(number: number): Promise<Hash | null> {
    return (await this.#blockAt(number))?.hash ?? null
  }

  /** The chain's block `number` (its hash and time); null when the chain has no such block. */
  async #blockAt(number: number): Promise<{ hash: Hash; timestamp: bigint } | null> {
    try {
      const block = await this.#client.getBlock({ blockNumber: BigInt(number) })
      return { hash: block.hash, timestamp: block.timestamp }
    } catch (error) {
      if (error instanceof BlockNotFoundError) return null
      throw error
    }
  }

  /**
   * The time of each block with a vote change among `logs`: from the logs themselves (nodes that follow the
   * current JSON-RPC specification send `blockTimestamp` with each log), else from the block, by its hash,
   * so the time is that of the very block the logs came from.
   */
  async #voteBlockTimes(logs: TokenLog[]): Promise<Map<number, number>> {
    const times = new Map<number, number>()
    const missing = new Map<number, Hash>()
    for (const log of logs) {
      if (log.eventName !== 'DelegateVotesChanged') continue
      if (log.blockTimestamp !== null) times.set(log.blockNumber, log.blockTimestamp)
      else missing.set(log.blockNumber, log.blockHash)
    }
    const asked = [...missing].filter(([number]) => !times.has(number))
    for (let i = 0; i < asked.length; i += FORK_SEARCH_CONCURRENCY) {
      const blocks = await Promise.all(
        asked
          .slice(i, i + FORK_SEARCH_CONCURRENCY)
          .map(([, blockHash]) => this.#client.getBlock({ blockHash })),
      )
      for (const block of blocks)
        if (block.number !== null) times.set(Number(block.number), Number(block.timestamp))
    }
    return times
  }

  /** The chain head, checked to be at or after `block`. */
  async #chainHead(block: bigint): Promise<bigint> {
    const head = await this.#client.getBlockNumber({ cacheTime: 0 })
    if (block > head) throw new FutureBlockError(block, head)
    return head
  }

  /** The indexed value (null: none recorded) when the index covers `block`, in one statement with the cursor. */
  async #fromIndex(latest: SQLWrapper, block: bigint) {
    const [row] = await this.#db
      .select({ block: tokenIndexCursor.block, value: sql<string | null>`(${latest})::text` })
      .from(tokenIndexCursor)
      .where(this.#ownCursor())
    // One statement, so the cursor and the value come from one snapshot even while a rewind commits.
    return row && block <= BigInt(row.block) ? { value: row.value } : undefined
  }

  #ownCursor(): SQL | undefined {
    return and(
      eq(tokenIndexCursor.id, CURSOR_ID),
      eq(tokenIndexCursor.chainId, this.#chainId),
      eq(tokenIndexCursor.token, this.#token),
      eq(tokenIndexCursor.fromBlock, this.#fromBlock),
    )
  }
}

function blockNumber(block: bigint | number): bigint {
  const n = BigInt(block)
  if (n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`not a block number: ${block}`)
  return n
}

/** JSON-RPC codes of rate limits (429 as some providers send it, QuickNode's -32007): a wait helps, not a smaller range. */
const RATE_LIMIT_CODES = new Set([429, -32_007])

/**
 * True when a range was refused as too large: a JSON-RPC error (providers cap block spans or result counts,
 * e.g. Infura -32005, Alchemy -32602), HTTP 400 or 413, an answer beyond the client's response size limit, or
 * no answer in time. Rate limits and other HTTP failures are not: the sync fails and retries after a pause.
 */
function refusedAsTooLarge(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false
  if (error.walk((cause) => cause instanceof ResponseBodyTooLargeError || cause instanceof TimeoutError))
    return true
  const http = error.walk((cause) => cause instanceof HttpRequestError || cause instanceof RpcRequestError) as
    | HttpRequestError
    | RpcRequestError
    | null
  if (http?.status === 400 || http?.status === 413) return true
  if (http?.status !== undefined && (http.status < 200 || http.status > 299)) return false
  const rpc = error.walk(
    (cause) =>
      cause instanceof RpcRequestError || (cause instanceof RpcError && !(cause instanceof UnknownRpcError)),
  ) as RpcRequestError | RpcError | null
  return rpc !== null && !RATE_LIMIT_CODES.has(rpc.code)
}

/** Locks the cursor row for this transaction; false when it is no longer at `expected` (another writer). */
async function lockCursorAt(tx: Tx, expected: Cursor): Promise<boolean> {
  const [row] = await tx
    .select({ block: tokenIndexCursor.block, blockHash: tokenIndexCursor.blockHash })
    .from(tokenIndexCursor)
    .where(eq(tokenIndexCursor.id, CURSOR_ID))
    .for('update')
  return row?.block === expected.block && row.blockHash === expected.blockHash
}

/** Deletes indexed rows of blocks after `block` (all of them when undefined). */
async function deleteRowsAfter(tx: Tx, block: number | undefined): Promise<void> {
  for (const table of [tokenBalanceCheckpoints, tokenDelegateChanges, tokenVoteCheckpoints]) {
    await tx.delete(table).where(block === undefined ? undefined : sql`${table.block} > ${block}`)
  }
  await tx
    .delete(tokenIndexBlocks)
    .where(block === undefined ? undefined : sql`${tokenIndexBlocks.number} > ${block}`)
  await rebuildMemberStats(tx, block)
}

/** topic0 of each of the three events. */
const [TRANSFER, DELEGATE_CHANGED, DELEGATE_VOTES_CHANGED] = TOKEN_EVENTS.map((event) =>
  toEventSelector(event),
)

/**
 * The token's Transfer, DelegateChanged and DelegateVotesChanged logs of blocks from…to. Sent without the
 * transport's retries: a refused range is halved at once instead of being asked for four times (a timeout
 * or an oversized answer would cost four full waits or downloads), and any other failure ends the sync,
 * whose loop retries after a pause.
 */
async function fetchTokenLogs(client: PublicClient, token: Address, from: number, to: number) {
  const logs = await client.request(
    {
      method: 'eth_getLogs',
      params: [
        {
          address: token,
          topics: [[TRANSFER, DELEGATE_CHANGED, DELEGATE_VOTES_CHANGED] as Hex[]],
          fromBlock: numberToHex(from),
          toBlock: numberToHex(to),
        },
      ],
    },
    { retryCount: 0 },
  )
  return logs.map(decodeTokenLog)
}

type TokenLog = {
  blockNumber: number
  blockHash: Hash
  /** The block's time (unix seconds), when the node sends it with the log. */
  blockTimestamp: number | null
  logIndex: number
  removed: boolean
} & (
  | { eventName: 'Transfer'; args: { from: Address; to: Address; value: bigint } }
  | { eventName: 'DelegateChanged'; args: { delegator: Address; fromDelegate: Address; toDelegate: Address } }
  | {
      eventName: 'DelegateVotesChanged'
      args: { delegate: Address; previousVotes: bigint; newVotes: bigint }
    }
)

/**
 * Decodes one of the three events. By hand rather than with viem's parseEventLogs, which hashes each event
 * signature again for every log: 48 µs a log, about 40 % of the sync time on a busy history. A log
 * whose layout is not the ERC20Votes one (another kind of contract at the address) stops the sync.
 */
function decodeTokenLog(log: RpcLog): TokenLog {
  const { topics, data } = log
  const base = {
    blockNumber: hexToNumber(log.blockNumber as Hex),
    blockHash: log.blockHash as Hash,
    blockTimestamp: log.blockTimestamp ? hexToNumber(log.blockTimestamp as Hex) : null,
    logIndex: hexToNumber(log.logIndex as Hex),
    removed: log.removed,
  }
  const selector = topics[0]?.toLowerCase()
  if (selector === TRANSFER && topics.length === 3 && data.length === 2 + 64)
    return {
      ...base,
      eventName: 'Transfer',
      args: { from: topicAddress(topics[1]), to: topicAddress(topics[2]), value: hexToBigInt(data) },
    }
  if (selector === DELEGATE_CHANGED && topics.length === 4 && data === '0x')
    return {
      ...base,
      eventName: 'DelegateChanged',
      args: {
        delegator: topicAddress(topics[1]),
        fromDelegate: topicAddress(topics[2]),
        toDelegate: topicAddress(topics[3]),
      },
    }
  if (selector === DELEGATE_VOTES_CHANGED && topics.length === 2 && data.length === 2 + 128)
    return {
      ...base,
      eventName: 'DelegateVotesChanged',
      args: {
        delegate: topicAddress(topics[1]),
        previousVotes: hexToBigInt(`0x${data.slice(2, 66)}`),
        newVotes: hexToBigInt(`0x${data.slice(66)}`),
      },
    }
  throw new Error(`token index: log ${base.logIndex} of block ${base.blockNumber} is not an ERC20Votes event`)
}

/** An address in an indexed topic: 12 zero bytes, then the address (checksummed, as viem decodes it). */
function topicAddress(topic: Hex | undefined): Address {
  if (topic?.length !== 66 || !/^0x0{24}/.test(topic)) throw new Error(`not an address topic: ${topic}`)
  return getAddress(`0x${topic.slice(26)}`)
}

/**
 * Writes the checkpoints of one range (per account and block, the state after the block's last event; vote
 * checkpoints dated with `times`) and moves the members directory's rows; returns how much the total of all
 * votes moved.
 */
async function applyLogs(tx: Tx, logs: TokenLog[], times: Map<number, number>): Promise<bigint> {
  const ordered = [...logs].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  )
  const balances = await latestBalances(
    tx,
    new Set(
      ordered.flatMap((log) =>
        log.eventName === 'Transfer' ? [log.args.from, log.args.to].filter((a) => a !== zeroAddress) : [],
      ),
    ),
  )
  // Keyed by block and account: a later event in the same block replaces the earlier value.
  const balanceRows = new Map<string, typeof tokenBalanceCheckpoints.$inferInsert>()
  const delegateRows = new Map<string, typeof tokenDelegateChanges.$inferInsert>()
  const voteRows = new Map<string, typeof tokenVoteCheckpoints.$inferInsert>()
  // Each account's state after the range, for the members directory.
  const after: MemberChanges = { balances: new Map(), delegates: new Map(), votes: new Map() }
  for (const log of ordered) {
    const block = log.blockNumber
    if (log.eventName === 'Transfer') {
      const { from, to, value } = log.args
      for (const [account, delta] of [
        [from, -value],
        [to, value],
      ] as const) {
        if (account === zeroAddress) continue
        const balance = (balances.get(account) ?? 0n) + delta
        // ERC-20 balances cannot go negative: a missing event, so refuse to write a wrong index.
        if (balance < 0n) throw new Error(`token index: negative balance for ${account} at block ${block}`)
        balances.set(account, balance)
        after.balances.set(account, balance)
        balanceRows.set(`${block}:${account}`, { account, block, balance })
      }
    } else if (log.eventName === 'DelegateChanged') {
      const { delegator, toDelegate } = log.args
      delegateRows.set(`${block}:${delegator}`, { delegator, block, delegate: toDelegate })
      after.delegates.set(delegator, toDelegate)
    } else {
      const { delegate, newVotes } = log.args
      const blockTime = times.get(block)
      if (blockTime === undefined) throw new Error(`token index: no time for block ${block}`)
      voteRows.set(`${block}:${delegate}`, { delegate, block, votes: newVotes, blockTime })
      after.votes.set(delegate, newVotes)
    }
  }
  for (const rows of chunks([...balanceRows.values()])) await tx.insert(tokenBalanceCheckpoints).values(rows)
  for (const rows of chunks([...delegateRows.values()])) await tx.insert(tokenDelegateChanges).values(rows)
  for (const rows of chunks([...voteRows.values()])) await tx.insert(tokenVoteCheckpoints).values(rows)
  return moveMemberStats(tx, after)
}

/** Each account's latest indexed balance (absent: never held any). */
async function latestBalances(tx: Tx, accounts: Set<Address>): Promise<Map<Address, bigint>> {
  const t = tokenBalanceCheckpoints
  const balances = new Map<Address, bigint>()
  const all = [...accounts]
  for (let i = 0; i < all.length; i += INSERT_CHUNK) {
    const rows = await tx
      .selectDistinctOn([t.account], { account: t.account, balance: t.balance })
      .from(t)
      .where(inArray(t.account, all.slice(i, i + INSERT_CHUNK)))
      .orderBy(t.account, desc(t.block))
    for (const row of rows) balances.set(row.account as Address, row.balance)
  }
  return balances
}

/** `rows` in slices of INSERT_CHUNK, one INSERT each. */
function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) yield rows.slice(i, i + INSERT_CHUNK)
}
