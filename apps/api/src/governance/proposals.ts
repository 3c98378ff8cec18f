// Proposals (docs/product.md, docs/security.md "Signed governance messages"): verify a signed proposal
// against the domain this server rebuilds from its config, check it against the DAO's rules, and store it
// with its log entry in one transaction; read proposals back for the list and their pages.
import {
  actionProblems,
  actionWarnings,
  decodeAction,
  type ProposalMessage,
  proposalId,
  proposalState,
  type SignedProposal,
  snapshotProblem,
  type Tally,
  type TallyJson,
  timestampProblem,
  timestampProblemMessage,
} from '@guildhall/core'
import { and, asc, eq, inArray, isNull } from 'drizzle-orm'
import type { Hex } from 'viem'
import type { Tx } from '../platform/db/client.ts'
import { proposals, type StoredProposal, topics } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { chainRead, checkSignature, type GovernanceDeps, seconds } from './deps.ts'
import { appendLog } from './log.ts'
import { insertEmptyTally } from './tallies.ts'
import { votingPowerAt } from './voting-power.ts'

export async function createProposal(
  deps: GovernanceDeps,
  { message, signature }: SignedProposal,
): Promise<{ id: Hex; created: boolean }> {
  const id = proposalId(deps.domain, message)
  const existing = await deps.database.db
    .select({ id: proposals.id })
    .from(proposals)
    .where(eq(proposals.id, id))
  // An exact replay: the same signed message is already stored.
  if (existing.length > 0) return { id, created: false }

  checkCategoryAndActions(deps, message)
  if (message.kind === 'quadratic' && !deps.rules.quadraticVoting) {
    throw new ApiError(
      422,
      'quadratic_disabled',
      'Quadratic voting is not enabled on this server: the operator has not turned it on (QUADRATIC_VOTING), as it is not sybil-resistant.',
    )
  }
  const now = seconds(deps.now())
  const { rules } = deps
  if (
    message.quorum !== rules.quorum ||
    message.threshold !== rules.threshold ||
    message.abstainCountsToQuorum !== rules.abstainCountsToQuorum
  ) {
    throw new ApiError(
      422,
      'rules_mismatch',
      `A proposal takes the DAO's current rules: quorum ${rules.quorum}, threshold ${rules.threshold}, abstain ${rules.abstainCountsToQuorum ? 'counts' : 'does not count'} toward the quorum.`,
    )
  }
  const clock = timestampProblem(message.timestamp, now)
  if (clock) throw new ApiError(422, 'bad_timestamp', timestampProblemMessage('proposal', clock))
  if (message.end <= now) throw new ApiError(422, 'ended', 'This proposal would end before it is created.')
  const head = Number(await chainRead(() => deps.client.getBlockNumber({ cacheTime: 0 })))
  const snapshot = snapshotProblem(message.snapshot, head, deps.snapshotMaxAgeBlocks)
  if (snapshot) throw new ApiError(422, 'bad_snapshot', snapshot)
  const power = await chainRead(() => votingPowerAt(deps, message.author, message.snapshot))
  if (power.power < BigInt(message.threshold)) {
    throw new ApiError(
      403,
      'below_threshold',
      `Creating a proposal needs ${message.threshold} votes at the snapshot block; you had ${power.power}.${power.reason ? ` ${power.reason.message}` : ''}`,
    )
  }
  await checkSignature(deps, message.author, id, signature)

  return deps.database.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(proposals)
      .values({
        id,
        author: message.author,
        start: message.start,
        end: message.end,
        snapshot: message.snapshot,
        message,
        signature,
      })
      .onConflictDoNothing()
      .returning({ id: proposals.id })
    if (inserted.length === 0) return { id, created: false }
    const logged = await appendLog(
      tx,
      { kind: 'proposal', messageId: id, proposalId: id, signature },
      deps.observer,
    )
    await insertEmptyTally(tx, id, message, logged.seq)
    await linkTopic(tx, id, message.body)
    return { id, created: true }
  })
}

/** A link to a topic in a proposal's body ("Discussed at <origin>/discussions/0x…"). */
const TOPIC_LINK = /\/discussions\/(0x[0-9a-f]{64})\b/gi

/**
 * A topic becomes a proposal (ADR 053): a proposal whose signed body links an existing topic not yet made
 * into one is that topic's proposal, so each links to the other. The first such link wins.
 */
async function linkTopic(tx: Tx, proposalId: string, body: string) {
  const linked = [
    ...new Set([...body.matchAll(TOPIC_LINK)].map((match) => (match[1] as string).toLowerCase())),
  ]
  if (linked.length === 0) return
  const [first] = await tx
    .select({ id: topics.id })
    .from(topics)
    .where(and(inArray(topics.id, linked), isNull(topics.proposalId)))
    .orderBy(asc(topics.logSeq))
    .limit(1)
  if (first) await tx.update(topics).set({ proposalId }).where(eq(topics.id, first.id))
}

/**
 * A version 2 proposal's category and actions against this DAO's settings (ADR 048): 400s, before any
 * chain read. Calls to the Safe itself need the signed "changes the Safe's settings" flag.
 */
function checkCategoryAndActions(deps: GovernanceDeps, message: ProposalMessage) {
  if (message.version !== 2) return
  const { category, actions, changesSafeSettings } = message
  if (category !== '' && !deps.categories.includes(category)) {
    throw new ApiError(
      400,
      'bad_category',
      deps.categories.length === 0
        ? `This DAO has no proposal categories, so a proposal names none; this one names "${category}".`
        : `The category "${category}" is not one of this DAO's: ${deps.categories.join(', ')} (or none).`,
    )
  }
  if (actions.length === 0) return
  if (!deps.treasury) {
    throw new ApiError(
      400,
      'no_treasury',
      'This DAO has no treasury Safe (TREASURY_SAFE), so a proposal cannot carry actions.',
    )
  }
  const [problem] = actionProblems(actions, { safe: deps.treasury.safe, changesSafeSettings })
  if (problem) throw new ApiError(400, 'bad_actions', problem.message)
}

/**
 * What the proposal list shows of a proposal besides its result (`resultSummary`), and the heading of its page:
 * its state as of `nowSeconds`.
 */
export function proposalSummary(proposal: StoredProposal, nowSeconds: number) {
  return {
    id: proposal.id,
    author: proposal.author,
    title: proposal.message.title,
    kind: proposal.message.kind,
    choices: proposal.message.choices,
    category: proposal.message.version === 2 ? proposal.message.category : '',
    start: proposal.start,
    end: proposal.end,
    snapshot: proposal.snapshot,
    state: proposalState(proposal, nowSeconds),
  }
}

/** The part of a result the proposal list shows (the summary's `result`); null: a ranked result never settled. */
export function resultSummary(
  result: Pick<Tally | TallyJson, 'outcome' | 'leading' | 'quorumReached' | 'voters'> | null,
) {
  return (
    result && {
      outcome: result.outcome,
      leading: result.leading,
      quorumReached: result.quorumReached,
      voters: result.voters,
    }
  )
}

/**
 * A proposal's actions as its page shows them: each as signed and decoded against the treasury, with the
 * warnings voters see. A version 1 proposal has none and changes no settings.
 */
export function proposalActions(deps: GovernanceDeps, message: ProposalMessage) {
  if (message.version !== 2) return { actions: [], changesSafeSettings: false, actionWarnings: [] }
  const { actions, changesSafeSettings } = message
  const safe = deps.treasury?.safe ?? null
  return {
    actions: actions.map((action) => ({ ...action, decoded: decodeAction(action, { safe }) })),
    changesSafeSettings,
    actionWarnings: safe ? actionWarnings(actions, { safe, changesSafeSettings }) : [],
  }
}

export function findProposal(deps: GovernanceDeps, id: string): Promise<StoredProposal | undefined> {
  return deps.reads.proposal(id, async () => {
    const [row] = await deps.database.db.select().from(proposals).where(eq(proposals.id, id))
    return row
  })
}

/** The proposal of `id`, or a 404. */
export async function requireProposal(deps: GovernanceDeps, id: string): Promise<StoredProposal> {
  const proposal = await findProposal(deps, id)
  if (!proposal) throw ApiError.unknownProposal()
  return proposal
}
