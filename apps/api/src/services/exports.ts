// What a recount reads: a proposal's result bundle and pages of the hash-chained log.
import type { LogEntry } from '@guildhall/core'
import { asc, eq, gt } from 'drizzle-orm'
import type { Hex } from 'viem'
import { governanceLog, votes } from '../db/schema.ts'
import { type GovernanceDeps, proposalResult, requireProposal } from './governance.ts'

/** Log entries a page holds at most. */
const LOG_PAGE_SIZE = 1000

/** A proposal (or a 404), all its votes, its log entries and its result. */
export async function resultBundle(deps: GovernanceDeps, id: string) {
  const proposal = await requireProposal(deps, id)
  const [allVotes, entries, result] = await Promise.all([
    deps.database.db
      .select()
      .from(votes)
      .where(eq(votes.proposalId, proposal.id))
      .orderBy(asc(votes.receivedAt)),
    deps.database.db
      .select()
      .from(governanceLog)
      .where(eq(governanceLog.proposalId, proposal.id))
      .orderBy(asc(governanceLog.seq)),
    proposalResult(deps, proposal),
  ])
  const log: LogEntry[] = entries.map((entry) => ({
    seq: entry.seq,
    kind: entry.kind,
    messageId: entry.messageId as Hex,
    signature: entry.signature as Hex,
    prevHash: entry.prevHash as Hex,
    hash: entry.hash as Hex,
  }))
  return { proposal, votes: allVotes, log, result }
}

/** The log from entry `after` + 1 on, one bounded page. */
export async function logPage(deps: GovernanceDeps, after: number) {
  const rows = await deps.database.db
    .select()
    .from(governanceLog)
    .where(gt(governanceLog.seq, after))
    .orderBy(asc(governanceLog.seq))
    .limit(LOG_PAGE_SIZE)
  return rows.map(({ createdAt: _c, proposalId: _p, ...entry }) => entry)
}
