// Proposals and votes (docs/product.md, docs/security.md "Signed governance messages"): verify a signed
// message against the domain and types this server rebuilds from its config, check the rules, and store it
// with its entry in the hash-chained log in one transaction.
import {
  type GovernanceDomain,
  type GovernanceRules,
  LOG_GENESIS_HASH,
  type LogEntry,
  logEntryHash,
  type ProposalState,
  proposalId,
  proposalState,
  type SignedProposal,
  type SignedVote,
  snapshotProblem,
  supersedes,
  type Tally,
  timestampProblem,
  timestampProblemMessage,
  type VoteMessage,
  voteChoicesProblem,
  voteId,
} from '@guildhall/core'
import { ChainUnavailableError, verifyHashSignature } from '@guildhall/core/signature'
import { and, desc, eq, sql } from 'drizzle-orm'
import type { Address, Hex, PublicClient } from 'viem'
import type { Database, Tx } from '../db/client.ts'
import { ballots, governanceLog, proposals, votes } from '../db/schema.ts'
import { ApiError } from '../errors.ts'
import type { AnswerSource, TokenIndex, ZeroVotesReason } from '../indexer/token-index.ts'
import { insertEmptyTally, lockTally, moveTally, storedTally, tallyRules } from './tallies.ts'

/** One key for pg_advisory_xact_lock: appends to the log happen one after another, so the chain is linear. */
export const LOG_LOCK_KEY = 0x6775696c64 // "guild"

export interface GovernanceDeps {
  database: Database
  client: PublicClient
  tokenIndex: TokenIndex
  domain: GovernanceDomain
  rules: GovernanceRules
  /** A new proposal's snapshot must be one of this many blocks before the head (ADR 015). */
  snapshotMaxAgeBlocks: number
  now: () => Date
}

/** Unix seconds of a date (the governance clock's unit). */
export const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** Why an address has no voting power at a block, and what to do about it (the vote panel's explainer). */
export type ZeroPowerReason =
  | { code: 'no-tokens'; message: string }
  | { code: 'tokens-after-snapshot'; message: string }
  | { code: 'not-delegated'; message: string }
  | { code: 'delegated-to-other'; message: string; delegate: Address }

export type VotingPower = { power: bigint; source: AnswerSource; reason: ZeroPowerReason | null }

/** Voting power of `account` at `block`, and when it is zero, why (the index decides; this words it). */
export async function votingPowerAt(
  deps: GovernanceDeps,
  account: Address,
  block: number,
): Promise<VotingPower> {
  const { votes, source, zeroReason } = await deps.tokenIndex.votingPower(account, block)
  return { power: votes, source, reason: zeroReason && zeroPowerMessage(zeroReason, block) }
}

function zeroPowerMessage(reason: ZeroVotesReason, block: number): ZeroPowerReason {
  switch (reason.code) {
    case 'tokens-after-snapshot':
      return {
        code: reason.code,
        message: `Your tokens arrived after block ${block}, when this proposal took its snapshot. They will count for proposals created from now on.`,
      }
    case 'no-tokens':
      return {
        code: reason.code,
        message: `You held no tokens at block ${block}, when this proposal took its snapshot, and no one delegated votes to you.`,
      }
    case 'not-delegated':
      return {
        code: reason.code,
        message: `You held tokens at block ${block} but had not delegated them, so they did not vote. Delegate to yourself (Overview → Delegation) to vote on proposals created after that.`,
      }
    case 'delegated-to-other':
      return {
        code: reason.code,
        message: `At block ${block} you had delegated your votes to ${reason.delegate}; they vote with your tokens. Delegate to yourself to vote on later proposals.`,
        delegate: reason.delegate,
      }
  }
}

async function checkSignature(deps: GovernanceDeps, address: Address, hash: Hex, signature: Hex) {
  let valid: boolean
  try {
    valid = await verifyHashSignature({ address, hash, signature, client: deps.client })
  } catch (error) {
    if (error instanceof ChainUnavailableError) {
      throw ApiError.contractCheckUnavailable()
    }
    throw error
  }
  if (!valid) {
    throw new ApiError(
      401,
      'bad_signature',
      'The signature does not match this message, this DAO and the signer in it.',
    )
  }
}

/** Appends an entry to the log inside `tx`; the advisory lock makes appends take turns. */
async function appendLog(
  tx: Tx,
  entry: { kind: LogEntry['kind']; messageId: Hex; proposalId: Hex; signature: Hex },
): Promise<LogEntry> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LOG_LOCK_KEY})`)
  const [last] = await tx
    .select({ seq: governanceLog.seq, hash: governanceLog.hash })
    .from(governanceLog)
    .orderBy(desc(governanceLog.seq))
    .limit(1)
  const unhashed = {
    seq: (last?.seq ?? 0) + 1,
    kind: entry.kind,
    messageId: entry.messageId,
    signature: entry.signature,
    prevHash: (last?.hash as Hex | undefined) ?? LOG_GENESIS_HASH,
  }
  const logged = { ...unhashed, hash: logEntryHash(unhashed) }
  await tx.insert(governanceLog).values({ ...logged, proposalId: entry.proposalId })
  return logged
}

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
  const head = Number(await chainHead(deps))
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
    const logged = await appendLog(tx, { kind: 'proposal', messageId: id, proposalId: id, signature })
    await insertEmptyTally(tx, id, message, logged.seq)
    return { id, created: true }
  })
}

export type StoredProposal = typeof proposals.$inferSelect

/** What the proposal list shows of a proposal, and the heading of its page: its state as of `nowSeconds`. */
export function proposalSummary(proposal: StoredProposal, nowSeconds: number) {
  return {
    id: proposal.id,
    author: proposal.author,
    title: proposal.message.title,
    kind: proposal.message.kind,
    start: proposal.start,
    end: proposal.end,
    snapshot: proposal.snapshot,
    state: proposalState(proposal, nowSeconds),
  }
}

export async function findProposal(deps: GovernanceDeps, id: string): Promise<StoredProposal | undefined> {
  const [row] = await deps.database.db.select().from(proposals).where(eq(proposals.id, id))
  return row
}

/** The proposal of `id`, or a 404. */
export async function requireProposal(deps: GovernanceDeps, id: string): Promise<StoredProposal> {
  const proposal = await findProposal(deps, id)
  if (!proposal) throw ApiError.unknownProposal()
  return proposal
}

/**
 * Accepts a vote on `proposalIdFromUrl`. The message is checked as signed for that proposal: a vote signed
 * for another proposal fails the signature check (401) instead of being filed elsewhere.
 */
export async function castVote(
  deps: GovernanceDeps,
  proposalIdFromUrl: string,
  { message: sent, signature }: SignedVote,
): Promise<{ id: Hex; created: boolean; counts: boolean }> {
  const proposal = await requireProposal(deps, proposalIdFromUrl)
  const message: VoteMessage = { ...sent, proposal: proposal.id as Hex }
  const id = voteId(deps.domain, message)
  const [replayed] = await deps.database.db.select({ id: votes.id }).from(votes).where(eq(votes.id, id))
  if (replayed) return { id, created: false, counts: await countsNow(deps, proposal.id, message.voter, id) }

  const now = seconds(deps.now())
  const state = proposalState(proposal, now)
  if (state !== 'active') {
    throw new ApiError(
      422,
      'not_open',
      state === 'pending'
        ? 'Voting on this proposal has not started yet.'
        : 'Voting on this proposal has ended.',
    )
  }
  const clock = timestampProblem(message.timestamp, now, proposal.start)
  if (clock) throw new ApiError(422, 'bad_timestamp', timestampProblemMessage('vote', clock))
  const choicesProblem = voteChoicesProblem(proposal.message, message.choices)
  if (choicesProblem) throw new ApiError(422, 'bad_choices', choicesProblem)
  await checkSignature(deps, message.voter, id, signature)
  const power = await chainRead(() => votingPowerAt(deps, message.voter, proposal.snapshot))
  if (power.power === 0n) {
    throw new ApiError(
      403,
      power.reason?.code ?? 'no_voting_power',
      power.reason?.message ?? 'You had no voting power at the snapshot block.',
    )
  }

  const rules = tallyRules(proposal.message)
  return deps.database.db.transaction(async (tx) => {
    // Votes on this proposal take turns from here to the commit: the ballot read below stays the counting one.
    const locked = await lockTally(tx, proposal.id)
    const inserted = await tx
      .insert(votes)
      .values({
        id,
        proposalId: proposal.id,
        voter: message.voter,
        timestamp: message.timestamp,
        message,
        signature,
        power: power.power,
        powerSource: power.source,
      })
      .onConflictDoNothing()
      .returning({ id: votes.id })
    // A replay that raced this one stored it first.
    if (inserted.length === 0) return { id, created: false, counts: true }
    const [replaced] = await tx
      .select({ id: votes.id, timestamp: votes.timestamp, message: votes.message, power: votes.power })
      .from(ballots)
      .innerJoin(votes, eq(ballots.voteId, votes.id))
      .where(and(eq(ballots.proposalId, proposal.id), eq(ballots.voter, message.voter)))
    // The ballot moves to this vote only if it supersedes the counting one (later, or same time and lower id).
    if (replaced && !supersedes({ id, timestamp: message.timestamp }, replaced)) {
      throw new ApiError(
        409,
        'superseded',
        'You have already voted later on this proposal; this earlier vote does not replace it.',
      )
    }
    await tx
      .insert(ballots)
      .values({
        proposalId: proposal.id,
        voter: message.voter,
        voteId: id,
        timestamp: message.timestamp,
        power: power.power,
      })
      .onConflictDoUpdate({
        target: [ballots.proposalId, ballots.voter],
        set: { voteId: id, timestamp: message.timestamp, power: power.power },
      })
    const logged = await appendLog(tx, {
      kind: 'vote',
      messageId: id,
      proposalId: proposal.id as Hex,
      signature,
    })
    await moveTally(tx, proposal.id, rules, locked, {
      replaced: replaced ? { choices: replaced.message.choices, power: replaced.power } : null,
      counting: { choices: message.choices, power: power.power },
      seq: logged.seq,
    })
    return { id, created: true, counts: true }
  })
}

async function countsNow(deps: GovernanceDeps, proposal: string, voter: string, id: string) {
  const [ballot] = await deps.database.db
    .select({ voteId: ballots.voteId })
    .from(ballots)
    .where(and(eq(ballots.proposalId, proposal), eq(ballots.voter, voter)))
  return ballot?.voteId === id
}

async function chainHead(deps: GovernanceDeps): Promise<bigint> {
  return chainRead(() => deps.client.getBlockNumber({ cacheTime: 0 }))
}

/** A chain read that cannot get an answer is a 503, not a 500. */
async function chainRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw ApiError.chainUnavailable()
  }
}

/** A proposal's result under its frozen rules, from its stored totals. */
export function proposalResult(deps: GovernanceDeps, proposal: StoredProposal): Promise<Tally> {
  return storedTally(deps.database.db, proposal.id, tallyRules(proposal.message))
}
