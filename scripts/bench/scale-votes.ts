// The scale bench's voters, proposal and votes, all deterministic: voter i's key is
// keccak256("guildhall-scale-voter-" + i), the proposal's every field is fixed but the chain's (domain and
// snapshot block), so the same chain setup gives the same proposal id and the signatures made once are
// reused from bench-results/ across runs.
import {
  BASIC_CHOICES,
  DEFAULT_GOVERNANCE_RULES,
  type GovernanceDomain,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  type VoteMessage,
  voteId,
  voteTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type Address, type Hex, keccak256, parseEther, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { SeedVote } from './scale-seed.ts'

export const scaleVoterKey = (i: number): Hex => keccak256(toHex(`guildhall-scale-voter-${i}`))

/** Voter i's tokens (and, self-delegated, its voting power): 1 to about 2 tokens, so the order by power means something. */
export const scaleHolderTokens = (i: number): bigint => parseEther('1') + BigInt(i % 997) * 10n ** 15n

/** 2026-01-01T00:00:00Z: the proposal opened then and stays open for ten years, so every run can vote on it. */
const SCALE_PROPOSAL_START = 1_767_225_600
const SCALE_PROPOSAL_END = SCALE_PROPOSAL_START + 10 * 365 * 86_400

export const scaleAuthor = () => privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)

export function scaleProposalMessage(snapshot: number, title = 'Scale bench: one proposal, many votes') {
  const message: ProposalMessage = {
    author: scaleAuthor().address,
    title,
    body: 'A proposal of `npm run bench -- scale`, seeded with signed votes straight into the database.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: SCALE_PROPOSAL_START,
    end: SCALE_PROPOSAL_END,
    snapshot,
    ...DEFAULT_GOVERNANCE_RULES,
    timestamp: SCALE_PROPOSAL_START,
  }
  return message
}

export async function signScaleProposal(domain: GovernanceDomain, message: ProposalMessage) {
  const signature = await scaleAuthor().signTypedData(proposalTypedData(domain, message))
  return { id: proposalId(domain, message), message, signature }
}

/** Voter i's vote: mostly For, some Against, a few Abstain; every tenth with a reason; a second apart. */
export function scaleVoteMessage(i: number, voter: Address, proposal: Hex): VoteMessage {
  const spread = i % 7
  return {
    voter,
    proposal,
    choices: [spread < 4 ? 1 : spread < 6 ? 2 : 3],
    reason: i % 10 === 0 ? `Reason of voter ${i}: the numbers add up.` : '',
    timestamp: SCALE_PROPOSAL_START + 60 + i,
  }
}

/** Votes of voters [from, to) on `proposal`, signed (the slow part: a key and a signature each). */
export async function signScaleVotes(
  domain: GovernanceDomain,
  proposal: Hex,
  from: number,
  to: number,
): Promise<SeedVote[]> {
  const signed: SeedVote[] = []
  for (let i = from; i < to; i++) {
    const account = privateKeyToAccount(scaleVoterKey(i))
    const message = scaleVoteMessage(i, account.address, proposal)
    signed.push({
      id: voteId(domain, message),
      message,
      signature: await account.signTypedData(voteTypedData(domain, message)),
      power: scaleHolderTokens(i),
    })
  }
  return signed
}
