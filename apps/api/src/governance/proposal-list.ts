// The proposal list, one page at a time, filtered by state in SQL: a proposal's state is a function of the
// clock (core's `proposalState`), so each state is a range condition on start and end.
import {
  FINALITY_DELAY_SECONDS,
  type ProposalListQuery,
  type ProposalState,
  settleTally,
} from '@guildhall/core'
import { and, eq, gt, lte, or, type SQL, sql } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { proposals, proposalTallies, rankedResults } from '../platform/db/schema.ts'
import { cursorCodec, cursorField, keysetPage, rowsForPage } from '../platform/http/keyset-page.ts'
import { proposalSummary, resultSummary } from './proposals.ts'
import { tallyRules, totalsOf } from './tallies.ts'

/** Proposals in `state` at `now`: the SQL form of `proposalState`, tested against it. */
function inState(state: ProposalState, now: number): SQL | undefined {
  switch (state) {
    case 'pending':
      return gt(proposals.start, now)
    case 'active':
      return and(lte(proposals.start, now), gt(proposals.end, now))
    case 'closed':
      return and(lte(proposals.end, now), gt(proposals.end, now - FINALITY_DELAY_SECONDS))
    case 'final':
      return lte(proposals.end, now - FINALITY_DELAY_SECONDS)
  }
}

/** The last row's start and id, each in its column's range; the member page's "proposals written" shares it. */
const cursor = cursorCodec(null, [cursorField.int8, cursorField.digest])

export function listProposals(db: Db, now: number, query: ProposalListQuery) {
  const filter =
    query.state === undefined ? undefined : or(...query.state.map((state) => inState(state, now)))
  return proposalPage(db, now, filter, query)
}

/**
 * A page of the proposals `filter` keeps, latest start first (the id breaking ties), after `cursor`: the
 * proposal list's order, which the member page's "proposals written" shares on its own index. Each row's
 * result is read with it (its tally row; a ranked-choice proposal's stored rounds, never settled here).
 */
export async function proposalPage(
  db: Db,
  now: number,
  filter: SQL | undefined,
  query: { cursor?: string | undefined; limit: number },
) {
  const from = query.cursor === undefined ? undefined : cursor.decode(query.cursor)
  const rows = await db
    .select({ proposal: proposals, totals: proposalTallies, ranked: rankedResults.result })
    .from(proposals)
    .leftJoin(proposalTallies, eq(proposalTallies.proposalId, proposals.id))
    .leftJoin(rankedResults, eq(rankedResults.proposalId, proposals.id))
    .where(
      and(
        filter,
        from === undefined
          ? undefined
          : sql`(${proposals.start}, ${proposals.id}) < (${String(from[0])}::bigint, ${from[1]})`,
      ),
    )
    // As the index is built (nulls last), so the page is read from it in order, not sorted.
    .orderBy(sql`${proposals.start} desc nulls last`, sql`${proposals.id} desc nulls last`)
    .limit(rowsForPage(query.limit))
  const { page, next } = keysetPage(rows, query.limit, (last) =>
    cursor.encode([BigInt(last.proposal.start), last.proposal.id as Hex]),
  )
  return {
    proposals: page.map(({ proposal, totals, ranked }) => {
      const rules = tallyRules(proposal.message)
      const result = rules.kind === 'ranked-choice' ? ranked : totals && settleTally(rules, totalsOf(totals))
      return { ...proposalSummary(proposal, now), result: resultSummary(result) }
    }),
    next,
  }
}
