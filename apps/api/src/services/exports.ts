// What a recount reads: a proposal's result bundle, streamed, and pages of the hash-chained log. The bundle
// is written a page of rows at a time, so its memory is one page whether the proposal has 10 votes or 100,000,
// and it stops at the log entry its tally stands at, so votes, log and tally always agree.
import { type LogEntry, TALLY_VERSION } from '@guildhall/core'
import { and, asc, eq, gt, inArray, lte } from 'drizzle-orm'
import type { Hex } from 'viem'
import { governanceLog, proposalTallies, votes } from '../db/schema.ts'
import type { GovernanceDeps, StoredProposal } from './governance.ts'
import { storedTally, tallyJson, tallyRules } from './tallies.ts'

/** Log entries a page holds at most. */
const LOG_PAGE_SIZE = 1000
/** Rows the bundle reads per query. */
const BUNDLE_PAGE_SIZE = 2000

function logEntry(row: typeof governanceLog.$inferSelect): LogEntry {
  return {
    seq: row.seq,
    kind: row.kind,
    messageId: row.messageId as Hex,
    signature: row.signature as Hex,
    prevHash: row.prevHash as Hex,
    hash: row.hash as Hex,
  }
}

/** The result bundle (format guildhall-result-bundle/1) of a stored proposal, as JSON text in pieces. */
export async function* resultBundleJson(
  deps: GovernanceDeps,
  proposal: StoredProposal,
): AsyncGenerator<string> {
  const { db } = deps.database
  // One read fixes where the bundle stops: the totals and the log entry they stand at.
  const [stands] = await db
    .select({ lastSeq: proposalTallies.lastSeq })
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposal.id))
  const lastSeq = stands?.lastSeq ?? 0
  const result = await storedTally(db, proposal.id, tallyRules(proposal.message))
  const head = {
    format: 'guildhall-result-bundle/1',
    tallyVersion: TALLY_VERSION,
    domain: deps.domain,
    proposal: { id: proposal.id, message: proposal.message, signature: proposal.signature },
    snapshot: proposal.snapshot,
    tally: tallyJson(result),
  }
  yield `${JSON.stringify(head).slice(0, -1)},"votes":[`
  let first = true
  for await (const page of logPages(deps, proposal.id, lastSeq, 'vote')) {
    const ids = page.map((entry) => entry.messageId)
    const rows = await db
      .select({ id: votes.id, message: votes.message, signature: votes.signature })
      .from(votes)
      .where(and(eq(votes.proposalId, proposal.id), inArray(votes.id, ids)))
    const byId = new Map(rows.map((row) => [row.id, row]))
    const text = ids.map((id) => JSON.stringify(byId.get(id))).join(',')
    yield first ? text : `,${text}`
    first = false
  }
  yield '],"log":['
  first = true
  for await (const page of logPages(deps, proposal.id, lastSeq)) {
    const text = page.map((entry) => JSON.stringify(entry)).join(',')
    yield first ? text : `,${text}`
    first = false
  }
  yield ']}'
}

/** A proposal's log entries up to `lastSeq`, a page at a time (only `kind` ones when given). */
async function* logPages(
  deps: GovernanceDeps,
  proposalId: string,
  lastSeq: number,
  kind?: LogEntry['kind'],
): AsyncGenerator<LogEntry[]> {
  let after = 0
  for (;;) {
    const rows = await deps.database.db
      .select()
      .from(governanceLog)
      .where(
        and(
          eq(governanceLog.proposalId, proposalId),
          gt(governanceLog.seq, after),
          lte(governanceLog.seq, lastSeq),
          kind === undefined ? undefined : eq(governanceLog.kind, kind),
        ),
      )
      .orderBy(asc(governanceLog.seq))
      .limit(BUNDLE_PAGE_SIZE)
    if (rows.length > 0) yield rows.map(logEntry)
    const last = rows.at(-1)
    if (!last || rows.length < BUNDLE_PAGE_SIZE) return
    after = last.seq
  }
}

/** The log from entry `after` + 1 on, one bounded page. */
export async function logPage(deps: GovernanceDeps, after: number) {
  const rows = await deps.database.db
    .select()
    .from(governanceLog)
    .where(gt(governanceLog.seq, after))
    .orderBy(asc(governanceLog.seq))
    .limit(LOG_PAGE_SIZE)
  return rows.map(logEntry)
}
