// What the token index answers: votes, balance and delegate of an account at a block, why votes are zero,
// the total of all votes and the number of holders. Up to the indexed block from the database; above it
// from the chain, and the answer says so (`source: 'chain'`).
import type { AnswerSource } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { and, desc, eq, lte, type SQLWrapper, sql } from 'drizzle-orm'
import { type Address, getAddress, type PublicClient, zeroAddress } from 'viem'
import type { Db } from '../../platform/db/client.ts'
import {
  tokenBalanceCheckpoints,
  tokenDelegateChanges,
  tokenIndexCursor,
  tokenVoteCheckpoints,
} from '../../platform/db/schema.ts'
import { TurnBatches } from '../../platform/db/turn-batches.ts'
import { type IndexedToken, ownCursor } from './cursor.ts'

export type Answer<T> = { value: T; source: AnswerSource }

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

export type IndexReadsOptions = {
  db: Db
  /** The DAO chain, for the answers above the indexed block. */
  client: PublicClient
  indexed: IndexedToken
  /** Multicall3 on the chain, for reading several answers in one eth_call; null: deployless multicall. */
  multicall3: Address | null
}

/** The token index's answers (TokenIndex, token-index.ts, adds the sync that keeps the index). */
export class IndexReads {
  readonly #db: Db
  readonly #client: PublicClient
  readonly #indexed: IndexedToken
  readonly #multicall3: Address | null

  /**
   * votesAt's reads of the index: every vote makes one, so the reads of a turn go in one statement
   * (platform/db/turn-batches.ts, ADR 077), each with the cursor's block it was read at.
   */
  readonly #votesAtIndex: TurnBatches<{ delegate: Address; block: number }, CursorRows>

  constructor(options: IndexReadsOptions) {
    this.#db = options.db
    this.#client = options.client
    this.#indexed = options.indexed
    this.#multicall3 = options.multicall3
    const t = tokenVoteCheckpoints
    const lookups = sql`jsonb_to_recordset(${sql.placeholder('lookups')}::jsonb) as x(i integer, delegate text, block bigint)`
    // Prepared: planned once per connection. The cursor's block and every value in one statement: one snapshot.
    const votesAtIndex = this.#db
      .select({
        block: sql<
          number | null
        >`(select ${tokenIndexCursor.block} from ${tokenIndexCursor} where ${ownCursor(this.#indexed)})`,
        value: sql<
          string | null
        >`(select ${t.votes} from ${t} where ${t.delegate} = x.delegate and ${t.block} <= x.block
          order by ${t.block} desc limit 1)::text`,
      })
      .from(lookups)
      .orderBy(sql`x.i`)
      .prepare('token_index_votes_at')
    this.#votesAtIndex = new TurnBatches(async (batch) => {
      const rows = await votesAtIndex.execute({
        lookups: JSON.stringify(batch.map((lookup, i) => ({ ...lookup, i }))),
      })
      return rows.map((row) => (row.block === null ? [] : [{ block: Number(row.block), value: row.value }]))
    })
  }

  /** The last indexed block (every event up to it is applied), or fromBlock − 1 before the first range. */
  async indexedBlock(): Promise<number> {
    const [row] = await this.#db
      .select({ block: tokenIndexCursor.block })
      .from(tokenIndexCursor)
      .where(ownCursor(this.#indexed))
    return row?.block ?? this.#indexed.fromBlock - 1
  }

  /** Voting power of `account` after block `block` (what getPastVotes(account, block) answers). */
  async votesAt(account: Address, block: bigint | number): Promise<Answer<bigint>> {
    const n = blockNumber(block)
    const delegate = getAddress(account)
    const indexed = covering(await this.#votesAtIndex.add({ delegate, block: Number(n) }), n)
    if (indexed) return { value: BigInt(indexed.value ?? 0), source: 'index' }
    const head = await this.#chainHead(n)
    const contract = { address: this.#indexed.token, abi: governanceTokenAbi } as const
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
      address: this.#indexed.token,
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
      address: this.#indexed.token,
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
    const contract = { address: this.#indexed.token, abi: governanceTokenAbi } as const
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
      .where(ownCursor(this.#indexed))
    return row && row.block >= this.#indexed.fromBlock
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
      .where(ownCursor(this.#indexed))
    if (!row || row.block < this.#indexed.fromBlock) return undefined
    return { holders: Number(row.holders), blockNumber: row.block }
  }

  /** The chain head, checked to be at or after `block`. */
  async #chainHead(block: bigint): Promise<bigint> {
    const head = await this.#client.getBlockNumber({ cacheTime: 0 })
    if (block > head) throw new FutureBlockError(block, head)
    return head
  }

  /** The indexed value (null: none recorded) when the index covers `block`, in one statement with the cursor. */
  async #fromIndex(latest: SQLWrapper, block: bigint) {
    return covering(await this.#cursorWith(latest), block)
  }

  /** The cursor's block and `latest`'s value, in one statement: one snapshot even while a rewind commits. */
  #cursorWith(latest: SQLWrapper) {
    return this.#db
      .select({ block: tokenIndexCursor.block, value: sql<string | null>`(${latest})::text` })
      .from(tokenIndexCursor)
      .where(ownCursor(this.#indexed))
  }
}

/** A read of the index with the cursor's block, `#cursorWith`'s or votesAt's: no row while there is no cursor. */
type CursorRows = { block: number; value: string | null }[]

/** The value of a read with the cursor when the index covers `block`; undefined when it does not (yet). */
function covering(rows: CursorRows, block: bigint) {
  const [row] = rows
  return row && block <= BigInt(row.block) ? { value: row.value } : undefined
}

function blockNumber(block: bigint | number): bigint {
  const n = BigInt(block)
  if (n < 0n || n > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`not a block number: ${block}`)
  return n
}
