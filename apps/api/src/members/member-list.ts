// The members directory, one page at a time (ADR 030): every listed member of `member_stats` (holding tokens,
// voting power or delegators, or having voted: ADR 037), sorted by voting power, delegators or participation
// on an index in the same order (the address breaking ties), so a page is an index seek at 100 members or at
// 100,000, and rows that change while a member pages never repeat or skip one that did not. A full address
// finds its account whatever it holds, as its member page does.
import { ADDRESS_START_PATTERN, type MemberListQuery, type MemberSort } from '@guildhall/core'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { type Address, getAddress } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { memberStats, nameProfiles } from '../platform/db/schema.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import type { TokenIndex } from '../token/token-index.ts'

const t = memberStats
const n = nameProfiles
const f = cursorField
/** A cursor is only good for the order that wrote it; each key has its column's range. */
const cursors = {
  power: cursorCodec('power', [f.uint256, f.address]),
  delegators: cursorCodec('delegators', [f.int4, f.uint256, f.address]),
  participation: cursorCodec('participation', [f.millionths, f.uint256, f.address]),
}

/** The sort's keys, most significant first; each order's index has them descending (nulls last). */
function sortKeys(sort: MemberSort): SQL[] {
  switch (sort) {
    case 'power':
      return [sql`${t.votes}`, sql`${t.address}`]
    case 'delegators':
      return [sql`${t.delegators}`, sql`${t.votes}`, sql`${t.address}`]
    case 'participation':
      return [sql`${t.participation}`, sql`${t.votes}`, sql`${t.address}`]
  }
}

/** The cursor's values as SQL, each cast to its column's type. */
function cursorValues(sort: MemberSort, text: string): SQL[] {
  if (sort === 'power') {
    const [votes, address] = cursors.power.decode(text)
    return [sql`${String(votes)}::numeric`, sql`${address}`]
  }
  const [key, votes, address] = cursors[sort].decode(text)
  return [sql`${key}::integer`, sql`${String(votes)}::numeric`, sql`${address}`]
}

/** Rows strictly after the cursor in the descending order: one row comparison, an index seek. */
function after(sort: MemberSort, text: string): SQL {
  return sql`(${sql.join(sortKeys(sort), sql`, `)}) < (${sql.join(cursorValues(sort, text), sql`, `)})`
}

/** `text` (any case) as the start of a LIKE pattern: a `%`, `_` or `\` in it matches only itself. */
const likePrefix = (text: string) => `${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`

/**
 * Members whose address starts with `q` when it is the start of an address, else whose name does (any
 * case). A name as the name refresher stored it: forward-checked (a reverse record claiming a name the
 * member does not own leaves `name` null), and still searched once expired, as GET /api/names still answers
 * it. The names are found on their own index (lower(name) text_pattern_ops), then their members by key.
 */
function matching(q: string): SQL {
  if (ADDRESS_START_PATTERN.test(q)) return sql`lower(${t.address}) like ${likePrefix(q)}`
  return sql`${t.address} in (select ${n.address} from ${n} where ${n.name} is not null and lower(${n.name}) like ${likePrefix(q)})`
}

/** The search when it is a whole address (any case): that one account, checksummed. */
const wholeAddress = (q: string | undefined): Address | undefined =>
  q !== undefined && q.length === 42 && ADDRESS_START_PATTERN.test(q) ? getAddress(q) : undefined

/**
 * Which rows a page reads: a whole address, its row whatever it holds (the primary key); else the listed
 * members (the orders' partial indexes), searched. `listed` as a bare column, so the planner matches the
 * indexes' predicate.
 */
function kept(q: string | undefined): SQL | undefined {
  const address = wholeAddress(q)
  if (address !== undefined) return eq(t.address, address)
  return and(sql`${t.listed}`, q === undefined ? undefined : matching(q))
}

/** The row of an account the directory has no row for: all zero (the member page's, and a whole-address search's). */
export const emptyRow = (address: Address): typeof t.$inferSelect => ({
  address,
  votes: 0n,
  balance: 0n,
  delegate: null,
  delegators: 0,
  votesCast: 0,
  eligibleProposals: 0,
  participation: 0,
  lastVoteAt: null,
  listed: false,
})

export type MemberListPage = {
  members: MemberFigures[]
  totalVotes: bigint
  blockNumber: number | null
  next: string | null
}

/** `part / whole` rounded down to millionths. */
const fraction = (part: bigint, whole: bigint) =>
  whole === 0n ? 0 : Number((part * 1_000_000n) / whole) / 1e6

/** A member's row as the directory and the member page answer it, `share` of `totalVotes`. */
export function memberFigures(row: typeof t.$inferSelect, totalVotes: bigint) {
  return {
    address: row.address,
    votes: row.votes,
    share: fraction(row.votes, totalVotes),
    balance: row.balance,
    delegate: row.delegate,
    delegators: row.delegators,
    votesCast: row.votesCast,
    eligibleProposals: row.eligibleProposals,
    participation: row.eligibleProposals === 0 ? null : row.participation / 1e6,
    lastVoteAt: row.lastVoteAt,
  }
}
export type MemberFigures = ReturnType<typeof memberFigures>

export async function listMembers(
  db: Db,
  tokenIndex: TokenIndex,
  query: MemberListQuery,
): Promise<MemberListPage> {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(t)
      .where(and(kept(query.q), query.cursor === undefined ? undefined : after(query.sort, query.cursor)))
      // "nulls last" as the indexes are built, so the page is read from the index in order, not sorted.
      .orderBy(...sortKeys(query.sort).map((key) => sql`${key} desc nulls last`))
      .limit(rowsForPage(query.limit)),
    tokenIndex.totalVotes(),
  ])
  const totalVotes = totals?.totalVotes ?? 0n
  // An account searched by its whole address is found even with no row: it signed in, say, and holds nothing.
  const address = wholeAddress(query.q)
  if (address !== undefined && rows.length === 0 && query.cursor === undefined) rows.push(emptyRow(address))
  const { page, next } = keysetPage(rows, query.limit, (row) =>
    query.sort === 'power'
      ? cursors.power.encode([row.votes, row.address as Address])
      : cursors[query.sort].encode([
          query.sort === 'delegators' ? row.delegators : row.participation,
          row.votes,
          row.address as Address,
        ]),
  )
  return {
    members: page.map((row) => memberFigures(row, totalVotes)),
    totalVotes,
    blockNumber: totals?.blockNumber ?? null,
    next,
  }
}
