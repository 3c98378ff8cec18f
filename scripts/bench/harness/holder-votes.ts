// The holders' keys, proposal and votes (scale and closing-hour sections), all deterministic: voter i's key is
// keccak256("guildhall-scale-voter-" + i) (benchVoterKey), the proposal's every field is fixed but the chain's (domain and
// snapshot block), so the same chain setup gives the same proposal id and the signatures made once are
// reused from bench-results/ across runs.
import {
  BASIC_CHOICES,
  DEFAULT_GOVERNANCE_RULES,
  type GovernanceDomain,
  type ProposalMessage,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type Address, type Hex, type PrivateKeyAccount, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey } from './chain.ts'
import type { SeedVote } from './vote-seed.ts'

export const scaleVoterKey = (i: number): Hex => benchVoterKey('scale', i)

/** Voter i's tokens (and, self-delegated, its voting power): 1 to about 2 tokens, so the order by power means something. */
export const scaleHolderTokens = (i: number): bigint => parseEther('1') + BigInt(i % 997) * 10n ** 15n

const DAY = 86_400
/** Proposals last at most 90 days (core's schema), so the proposal is the one of the current 30-day period. */
const PERIOD = 30 * DAY

/**
 * The proposal's start: two days before the current 30-day period began, so every seeded vote (a second
 * apart, 100,000 of them: about 28 hours) is dated in the past and a vote signed now replaces it; it ends 90
 * days after its start, so it is open for the whole period. The same all period long: the signatures
 * cached by the bench stay good for a month.
 */
function scaleProposalStart(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000 / PERIOD) * PERIOD - 2 * DAY
}

const scaleAuthor = () => privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)

export function scaleProposalMessage(
  snapshot: number,
  title = 'Scale bench: one proposal, many votes',
  start = scaleProposalStart(),
) {
  const message: ProposalMessage = {
    author: scaleAuthor().address,
    title,
    body: 'A proposal of `npm run bench -- scale`, seeded with signed votes straight into the database.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start,
    end: start + 90 * DAY,
    snapshot,
    ...DEFAULT_GOVERNANCE_RULES,
    timestamp: start,
  }
  return message
}

export async function signScaleProposal(domain: GovernanceDomain, message: ProposalMessage) {
  return signGovernanceMessage(scaleAuthor(), domain, { type: 'Proposal', message })
}

/** Voter i's vote: mostly For, some Against, a few Abstain; every tenth with a reason; a second apart. */
export function scaleVoteMessage(i: number, voter: Address, proposal: Hex, start: number): VoteMessage {
  const spread = i % 7
  return {
    voter,
    proposal,
    choices: [spread < 4 ? 1 : spread < 6 ? 2 : 3],
    reason: i % 10 === 0 ? `Reason of voter ${i}: the numbers add up.` : '',
    timestamp: start + 60 + i,
  }
}

/** Voter i's vote on `proposal`, signed by its `account`, with the power the chain gives it. */
export async function signScaleVote(
  domain: GovernanceDomain,
  proposal: { id: Hex; message: ProposalMessage },
  i: number,
  account: PrivateKeyAccount = privateKeyToAccount(scaleVoterKey(i)),
): Promise<SeedVote> {
  const message = scaleVoteMessage(i, account.address, proposal.id, proposal.message.start)
  const signed = await signGovernanceMessage(account, domain, { type: 'Vote', message })
  return { ...signed, power: scaleHolderTokens(i) }
}

/** Votes of voters [from, to) on `proposal`, signed (the slow part: a key and a signature each). */
export async function signScaleVotes(
  domain: GovernanceDomain,
  proposal: { id: Hex; message: ProposalMessage },
  from: number,
  to: number,
): Promise<SeedVote[]> {
  const signed: SeedVote[] = []
  for (let i = from; i < to; i++) signed.push(await signScaleVote(domain, proposal, i))
  return signed
}

/** Re-votes of holders [from, from + count) for `choice`: a timestamp later than their last vote's replaces it. */
export async function signReVotes(
  chain: { domain: GovernanceDomain; proposal: { id: Hex } },
  from: number,
  count: number,
  { choice, timestamp }: { choice: number; timestamp: number },
) {
  const bodies: string[] = []
  for (let i = from; i < from + count; i++) {
    const account = privateKeyToAccount(scaleVoterKey(i))
    const message: VoteMessage = {
      voter: account.address,
      proposal: chain.proposal.id,
      choices: [choice],
      reason: 'Changed my mind.',
      timestamp,
    }
    const { signature } = await signGovernanceMessage(account, chain.domain, { type: 'Vote', message })
    bodies.push(JSON.stringify({ message, signature }))
  }
  return bodies
}
