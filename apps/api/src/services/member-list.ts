// The members directory, one page at a time (ADR 030): every holder, delegate, voter and signed-in member
// from `member_stats`, sorted by voting power, delegators or participation on an index in the same order
// (the address breaking ties), so a page is an index seek at 100 members or at 100,000, and rows that change
// while a member pages never repeat or skip one that did not.
import { ADDRESS_START_PATTERN, type MemberListQuery, type MemberSort } from '@guildhall/core'
import { and, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { memberStats, nameProfiles } from '../db/schema.ts'
import type { TokenIndex } from '../indexer/token-index.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'

const t = memberStats
const n = nameProfiles
const address = '(0x[0-9a-fA-F]{40})'
const amount = '(\\d{1,78})'
/** A cursor is only good for the order that wrote it. */
const cursorShapes: Record<MemberSort, RegExp> = {
  power: new RegExp(`^power:${amount}:${address}$`),
  delegators: new RegExp(`^delegators:(\\d{1,10}):${amount}:${address}$`),
  participation: new RegExp(`^participation:(\\d{1,7}):${amount}:${address}$`),
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

/** Rows strictly after the cursor in the descending order: one row comparison, an index seek. */
function after(sort: MemberSort, text: string): SQL {
  const parts = decodeCursor(text, cursorShapes[sort])
  const values = parts.map((part, i) =>
    i === parts.length - 1
      ? sql`${part}`
      : i === parts.length - 2
        ? sql`${part}::numeric`
        : sql`${Number(part)}::integer`,
  )
  return sql`(${sql.join(sortKeys(sort), sql`, `)}) < (${sql.join(values, sql`, `)})`
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
      .where(
        and(
          query.q === undefined ? undefined : matching(query.q),
          query.cursor === undefined ? undefined : after(query.sort, query.cursor),
        ),
      )
      // "nulls last" as the indexes are built, so the page is read from the index in order, not sorted.
      .orderBy(...sortKeys(query.sort).map((key) => sql`${key} desc nulls last`))
      .limit(query.limit + 1),
    tokenIndex.totalVotes(),
  ])
  const totalVotes = totals?.totalVotes ?? 0n
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const keys = (row: typeof t.$inferSelect) =>
    query.sort === 'power'
      ? [row.votes, row.address]
      : [query.sort === 'delegators' ? row.delegators : row.participation, row.votes, row.address]
  return {
    members: page.map((row) => memberFigures(row, totalVotes)),
    totalVotes,
    blockNumber: totals?.blockNumber ?? null,
    next: rows.length > query.limit && last ? encodeCursor([query.sort, ...keys(last)]) : null,
  }
}
