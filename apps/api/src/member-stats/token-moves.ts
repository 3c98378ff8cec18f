// The members directory's figures from the token index (ADR 030): each applied range moves the rows of the
// accounts it touched (votes, balance, delegate, and the delegators of their old and new delegates), in
// the range's own transaction; once the index has passed a proposal's snapshot, the members with voting
// power there count it as a proposal they could vote on, a chunk of members at a time (ADR 033). A rewind
// rebuilds every row from the index.
import { asc, eq, gt, inArray, sql } from 'drizzle-orm'
import { type Address, zeroAddress } from 'viem'
import type { Db, Tx } from '../platform/db/client.ts'
import { memberEligibilityCounted, memberStats, proposals, tokenIndexCursor } from '../platform/db/schema.ts'

/** Rows per statement (4 parameters each). */
const CHUNK = 1_000

/** What one range left each account with: the last value of each in the range. */
export type MemberChanges = {
  balances: Map<Address, bigint>
  /** The zero address: delegates to nobody. */
  delegates: Map<Address, Address>
  votes: Map<Address, bigint>
}

type Held = { votes: bigint; balance: bigint; delegate: string | null }

/**
 * Moves the rows of the accounts a range touched, and recounts the delegators of every delegate an account
 * left or joined. Returns how much the total of all votes moved.
 */
export async function moveMemberStats(tx: Tx, changes: MemberChanges): Promise<bigint> {
  const touched = new Set<Address>([
    ...changes.balances.keys(),
    ...changes.delegates.keys(),
    ...changes.votes.keys(),
  ])
  for (const delegate of changes.delegates.values()) if (delegate !== zeroAddress) touched.add(delegate)
  if (touched.size === 0) return 0n
  const accounts = [...touched]
  const before = new Map<string, Held>()
  for (const chunk of chunks(accounts)) {
    const rows = await tx
      .select({
        address: memberStats.address,
        votes: memberStats.votes,
        balance: memberStats.balance,
        delegate: memberStats.delegate,
      })
      .from(memberStats)
      .where(inArray(memberStats.address, chunk))
    for (const row of rows) before.set(row.address, row)
  }
  let totalMoved = 0n
  const rows = accounts.map((address) => {
    const old = before.get(address)
    const votes = changes.votes.get(address) ?? old?.votes ?? 0n
    totalMoved += votes - (old?.votes ?? 0n)
    const delegate = changes.delegates.get(address)
    return {
      address,
      votes,
      balance: changes.balances.get(address) ?? old?.balance ?? 0n,
      delegate: delegate === undefined ? (old?.delegate ?? null) : delegate === zeroAddress ? null : delegate,
    }
  })
  for (const chunk of chunks(rows)) {
    await tx
      .insert(memberStats)
      .values(chunk)
      .onConflictDoUpdate({
        target: memberStats.address,
        set: {
          votes: sql`excluded.votes`,
          balance: sql`excluded.balance`,
          delegate: sql`excluded.delegate`,
        },
      })
  }
  // A delegator counts while it holds tokens: a change of delegate or balance moves its old and new delegate.
  const recount = new Set<string>()
  for (const row of rows) {
    if (!changes.balances.has(row.address) && !changes.delegates.has(row.address)) continue
    const old = before.get(row.address)?.delegate
    if (old) recount.add(old)
    if (row.delegate) recount.add(row.delegate)
  }
  for (const chunk of chunks([...recount])) {
    await tx.execute(sql`
      update member_stats m set delegators = (
        select count(*) from member_stats d
        where d.delegate = m.address and d.address <> m.address and d.balance > 0
      )
      where m.address in (${sql.join(
        chunk.map((address) => sql`${address}`),
        sql`, `,
      )})`)
  }
  return totalMoved
}

/** Proposals whose snapshot is at or below `block` and whose eligible members are not all counted yet. */
async function uncountedSnapshots(db: Db | Tx, block: number) {
  return db
    .select({ id: proposals.id, snapshot: proposals.snapshot })
    .from(proposals)
    .where(
      sql`${proposals.snapshot} <= ${block} and not exists (select 1 from ${memberEligibilityCounted} c where c.proposal_id = ${proposals.id} and c.done)`,
    )
    .orderBy(proposals.snapshot, proposals.id)
}

/**
 * Members counted per transaction. One statement over every member took 8 to 13 s at 100,000 holders and
 * held each vote that touched one of their rows (ADR 033); a chunk takes a fraction of a second.
 */
const ELIGIBILITY_CHUNK = 2_000

export type EligibilityCountOptions = {
  /**
   * Called first in every transaction of the count: locks what keeps the snapshots indexed (the token
   * index's cursor, so no rewind interleaves); false ends the count, which the next sync resumes.
   */
  lock: (tx: Tx) => Promise<boolean>
  /** Members per transaction. */
  chunk?: number
  /** Checked between chunks: true ends the count early; the next count goes on from where it stopped. */
  stopped?: () => boolean
}

/**
 * Counts each proposal whose snapshot the index has reached (at `block`) into `eligible_proposals` of every
 * member with voting power at that snapshot, a chunk of members in address order per transaction. Each
 * chunk moves the proposal's progress mark in its own transaction, so a count cut short (a stop, a leader
 * that died) goes on from the mark and counts nobody twice. Between chunks other work gets the database
 * (PGlite has one connection). Returns the number of chunks counted.
 */
export async function countEligibleMembers(
  db: Db,
  block: number,
  { lock, chunk = ELIGIBILITY_CHUNK, stopped = () => false }: EligibilityCountOptions,
): Promise<number> {
  const due = await uncountedSnapshots(db, block)
  if (due.length === 0) return 0
  const started = await db.transaction(async (tx) => {
    if (!(await lock(tx))) return false
    await tx
      .insert(memberEligibilityCounted)
      .values(due.map((proposal) => ({ proposalId: proposal.id, snapshot: proposal.snapshot, done: false })))
      .onConflictDoNothing()
    return true
  })
  if (!started) return 0
  let chunks = 0
  for (const proposal of due) {
    for (;;) {
      if (stopped()) return chunks
      const counted = await db.transaction(async (tx) =>
        (await lock(tx)) ? countNextChunk(tx, proposal.id, chunk) : 'stop',
      )
      if (counted === 'stop') return chunks
      if (counted === 'none') break
      chunks++
      if (counted === 'last') break
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return chunks
}

/**
 * The next `size` members (by address) after the proposal's mark: each with votes at the snapshot gets one
 * more eligible proposal, and the mark moves past them ('last' when no member is left after them; 'none'
 * when the proposal was already done or is no longer being counted).
 */
async function countNextChunk(tx: Tx, proposalId: string, size: number): Promise<'more' | 'last' | 'none'> {
  const [mark] = await tx
    .select({
      snapshot: memberEligibilityCounted.snapshot,
      done: memberEligibilityCounted.done,
      countedThrough: memberEligibilityCounted.countedThrough,
    })
    .from(memberEligibilityCounted)
    .where(eq(memberEligibilityCounted.proposalId, proposalId))
    .for('update')
  if (!mark || mark.done) return 'none'
  const after = mark.countedThrough
  // The chunk's last member: the size-th address after the mark; none when fewer are left (the last chunk).
  const [end] = await tx
    .select({ address: memberStats.address })
    .from(memberStats)
    .where(after === null ? undefined : gt(memberStats.address, after))
    .orderBy(asc(memberStats.address))
    .offset(size - 1)
    .limit(1)
  const through = end?.address ?? null
  await tx.execute(sql`
    update member_stats m set eligible_proposals = m.eligible_proposals + 1
    from (
      select distinct on (delegate) delegate, votes from token_vote_checkpoints
      where block <= ${mark.snapshot}
        ${after === null ? sql`` : sql`and delegate > ${after}`}
        ${through === null ? sql`` : sql`and delegate <= ${through}`}
      order by delegate, block desc
    ) p
    where p.delegate = m.address and p.votes > 0`)
  await tx
    .update(memberEligibilityCounted)
    .set({ done: through === null, countedThrough: through })
    .where(eq(memberEligibilityCounted.proposalId, proposalId))
  return through === null ? 'last' : 'more'
}

/**
 * Every member's figures recounted from the index and the ballots, in one query: what the incremental path
 * must have left (`npm run tallies:check` compares), and what a rewind rebuilds from. The migration that
 * added the table backfilled with this query when sign-in still added members (ADR 037 took the sessions
 * out; its migration deleted the rows only they had made).
 */
export const MEMBER_STATS_RECOUNT = sql`
  with
    balances as (
      select distinct on (account) account as address, balance
      from token_balance_checkpoints order by account, block desc),
    delegations as (
      select distinct on (delegator) delegator as address, nullif(delegate, ${zeroAddress}) as delegate
      from token_delegate_changes order by delegator, block desc),
    powers as (
      select distinct on (delegate) delegate as address, votes
      from token_vote_checkpoints order by delegate, block desc),
    delegator_counts as (
      select d.delegate as address, count(*)::integer as delegators
      from delegations d join balances b on b.address = d.address
      where d.delegate <> d.address and b.balance > 0 group by d.delegate),
    voted as (
      select voter as address, count(*)::integer as votes_cast, max("timestamp") as last_vote_at
      from ballots group by voter),
    eligible as (
      select p.address, count(*)::integer as eligible_proposals
      from member_eligibility_counted c cross join lateral (
        select distinct on (delegate) delegate as address, votes from token_vote_checkpoints
        where block <= c.snapshot order by delegate, block desc) p
      where p.votes > 0 and (c.done or p.address <= c.counted_through) group by p.address),
    members as (
      select address from balances union select address from delegations
      union select delegate from delegations where delegate is not null
      union select address from powers union select address from voted)
  select m.address, coalesce(p.votes, 0) as votes, coalesce(b.balance, 0) as balance, d.delegate,
    coalesce(dc.delegators, 0) as delegators, coalesce(v.votes_cast, 0) as votes_cast,
    coalesce(e.eligible_proposals, 0) as eligible_proposals, v.last_vote_at
  from members m
    left join powers p on p.address = m.address
    left join balances b on b.address = m.address
    left join delegations d on d.address = m.address
    left join delegator_counts dc on dc.address = m.address
    left join voted v on v.address = m.address
    left join eligible e on e.address = m.address`

/**
 * Rebuilds every row from the index after a rewind to `block` (undefined: the index was emptied): proposals
 * whose snapshot is no longer indexed are uncounted, and the total of all votes is summed again.
 */
export async function rebuildMemberStats(tx: Tx, block: number | undefined): Promise<void> {
  await tx
    .delete(memberEligibilityCounted)
    .where(block === undefined ? undefined : sql`${memberEligibilityCounted.snapshot} > ${block}`)
  await tx.execute(
    sql`update member_stats set votes = 0, balance = 0, delegate = null, delegators = 0, votes_cast = 0, eligible_proposals = 0, last_vote_at = null`,
  )
  await tx.execute(sql`
    insert into member_stats (address, votes, balance, delegate, delegators, votes_cast, eligible_proposals, last_vote_at)
    ${MEMBER_STATS_RECOUNT}
    on conflict (address) do update set votes = excluded.votes, balance = excluded.balance,
      delegate = excluded.delegate, delegators = excluded.delegators, votes_cast = excluded.votes_cast,
      eligible_proposals = excluded.eligible_proposals, last_vote_at = excluded.last_vote_at`)
  await tx
    .update(tokenIndexCursor)
    .set({ totalVotes: sql`(select coalesce(sum(votes), 0) from member_stats)` })
}

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += CHUNK) yield rows.slice(i, i + CHUNK)
}
