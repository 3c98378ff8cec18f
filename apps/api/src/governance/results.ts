// A proposal's result, from its stored totals (governance/tallies.ts), and the result bundle a recount reads,
// streamed: a page of rows at a time, so its memory is one page whether the proposal has 10 votes or 100,000,
// and it stops at the log entry its tally stands at, so votes, log and tally always agree.
import { TALLY_VERSION, type Tally, tallyToJson } from '@guildhall/core'
import { and, asc, count, eq, inArray, lte } from 'drizzle-orm'
import type { StoredProposal } from '../platform/db/schema.ts'
import { governanceLog, safeExecutions, safeSignatures, votes } from '../platform/db/schema.ts'
import type { GovernanceDeps } from './deps.ts'
import { logEntry, proposalLogPages } from './log.ts'
import { rankedResultAt } from './ranked-results.ts'
import { storedTallyAt, tallyRules } from './tallies.ts'

/**
 * A proposal's result under its frozen rules and the log entry it stands at: from its stored totals, or a
 * ranked-choice proposal's stored rounds (ranked-results.ts); one row, whatever the number of votes. `behind`:
 * votes after that entry are not counted in yet (ranked-choice while a settle is due).
 */
export async function proposalResultAt(
  deps: GovernanceDeps,
  proposal: StoredProposal,
): Promise<{ result: Tally; seq: number; behind: boolean }> {
  if (proposal.message.kind === 'ranked-choice') {
    const { ranked, lastSeq } = await rankedResultAt(deps, proposal)
    return { result: ranked.result, seq: ranked.asOfSeq, behind: ranked.asOfSeq < lastSeq }
  }
  const stored = await storedTallyAt(deps.database.db, proposal.id, tallyRules(proposal.message))
  if (!stored) throw new Error(`Proposal ${proposal.id} has no tally row`)
  return { result: stored.result, seq: stored.lastSeq, behind: false }
}

/** A proposal's result under its frozen rules (`proposalResultAt`), shared by its concurrent readers. */
export function proposalResult(deps: GovernanceDeps, proposal: StoredProposal): Promise<Tally> {
  return deps.reads.shared(proposal.id, 'tally', async () => (await proposalResultAt(deps, proposal)).result)
}

/** The result bundle (format guildhall-result-bundle/1) of a stored proposal, as JSON text in pieces. */
export async function* resultBundleJson(
  deps: GovernanceDeps,
  proposal: StoredProposal,
): AsyncGenerator<string> {
  const { db } = deps.database
  // One read fixes where the bundle stops: the log entry its result stands at (ranked-choice: the settled
  // rounds', so the votes a recount runs the rounds on are exactly those the published rounds counted).
  const { result, seq: lastSeq } = await proposalResultAt(deps, proposal)
  const [counted] = await db
    .select({ votes: count() })
    .from(governanceLog)
    .where(
      and(
        eq(governanceLog.proposalId, proposal.id),
        eq(governanceLog.kind, 'vote'),
        lte(governanceLog.seq, lastSeq),
      ),
    )
  const head = {
    format: 'guildhall-result-bundle/1',
    tallyVersion: TALLY_VERSION,
    domain: deps.domain,
    proposal: { id: proposal.id, message: proposal.message, signature: proposal.signature },
    snapshot: proposal.snapshot,
    tally: tallyToJson(result),
    voteCount: counted?.votes ?? 0,
  }
  yield `${JSON.stringify(head).slice(0, -1)},"votes":[`
  let first = true
  for await (const page of proposalLogPages(deps, proposal.id, lastSeq, 'vote')) {
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
  for await (const page of proposalLogPages(deps, proposal.id, lastSeq)) {
    const text = page.map((entry) => JSON.stringify(entry)).join(',')
    yield first ? text : `,${text}`
    first = false
  }
  yield `],"execution":${JSON.stringify(await bundleExecution(deps, proposal.id))}}`
}

/**
 * The proposal's execution as the bundle carries it (ADR 051): the Safe transactions queued for it, as
 * stored (the execution area settles them against the chain; the recount reads the chain itself), each
 * owner's signature with its log entry; null when it was never queued. A handful of rows.
 */
async function bundleExecution(deps: GovernanceDeps, proposalId: string) {
  const { db } = deps.database
  const entries = await db
    .select()
    .from(safeExecutions)
    .where(eq(safeExecutions.proposalId, proposalId))
    .orderBy(asc(safeExecutions.queuedAt), asc(safeExecutions.nonce))
  const [firstEntry] = entries
  if (!firstEntry) return null
  const signed = await db
    .select({ safeTxHash: safeSignatures.safeTxHash, owner: safeSignatures.owner, log: governanceLog })
    .from(safeSignatures)
    .innerJoin(governanceLog, eq(governanceLog.seq, safeSignatures.logSeq))
    .where(
      inArray(
        safeSignatures.safeTxHash,
        entries.map((entry) => entry.safeTxHash),
      ),
    )
    .orderBy(asc(safeSignatures.logSeq))
  return {
    safe: firstEntry.safe,
    entries: entries.map((entry) => ({
      nonce: entry.nonce,
      transaction: entry.transaction,
      safeTxHash: entry.safeTxHash,
      state: entry.state,
      signatures: signed
        .filter((s) => s.safeTxHash === entry.safeTxHash)
        .map((s) => ({ owner: s.owner, signature: s.log.signature, log: logEntry(s.log) })),
      executedIn: entry.state === 'executed' ? entry.outcomeTransaction : null,
    })),
  }
}
