// The ranked-choice section's proposal and ballots, all deterministic: the proposal's every field is fixed
// but the chain's (domain and snapshot block), voter i's key is benchVoterKey("ranked", i), and each ballot's
// full ranking is drawn from a seeded stream (random.ts) with some choices more popular than others, as a
// grant round's are, so the count eliminates one choice after another for many rounds. The same chain gives
// the same proposal id, so the signatures (a key and a vote per voter, minutes of CPU) are made once and kept
// in bench-results/ranked-choice-cache/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  DEFAULT_GOVERNANCE_RULES,
  type GovernanceDomain,
  type ProposalMessage,
  signGovernanceMessage,
  type VoteMessage,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type Address, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey } from '../harness/chain.ts'
import { seededRandom } from '../harness/random.ts'
import type { SeedVote } from '../harness/vote-seed.ts'
import { CHOICES } from './plan.ts'

const DAY = 86_400
/** Proposals last at most 90 days (core's schema), so the proposal is the one of the current 30-day period. */
const PERIOD = 30 * DAY

export type RankedProposal = { id: Hex; message: ProposalMessage; signature: Hex }

/** Voter i's power: 1 to about 2 tokens, so ballots weigh differently. */
const rankedVoterPower = (i: number): bigint => parseEther('1') + BigInt(i % 997) * 10n ** 15n

/**
 * Choice c's popularity (1-based): a ballot puts a choice next with a chance in proportion to it among the
 * choices it has not ranked yet. Gently falling, so first preferences differ but no choice comes near a
 * majority until most others are eliminated.
 */
const popularity = (choice: number) => 1 / (1 + 0.08 * (choice - 1))

/** Ballot i's full ranking of the choices 1…CHOICES, best first. */
export function rankedBallot(i: number): number[] {
  const next = seededRandom(0x5eed_0000 + i)
  const left = Array.from({ length: CHOICES }, (_, index) => index + 1)
  const ranking: number[] = []
  while (left.length > 0) {
    const total = left.reduce((sum, choice) => sum + popularity(choice), 0)
    let draw = next() * total
    let picked = left.length - 1
    for (let k = 0; k < left.length; k++) {
      draw -= popularity(left[k] as number)
      if (draw < 0) {
        picked = k
        break
      }
    }
    ranking.push(left.splice(picked, 1)[0] as number)
  }
  return ranking
}

const author = () => privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)

/**
 * Ada's ranked-choice proposal: from two days before the current 30-day period began (every ballot, a second
 * apart, is dated in the past) for 90 days, so it is open all period and its signatures stay good for a month.
 */
export async function signRankedProposal(
  domain: GovernanceDomain,
  snapshot: number,
): Promise<RankedProposal> {
  const start = Math.floor(Date.now() / 1000 / PERIOD) * PERIOD - 2 * DAY
  const message: ProposalMessage = {
    author: author().address,
    title: `Ranked-choice bench: one grant among ${CHOICES} applicants`,
    body: 'A proposal of `npm run bench -- ranked-choice`, seeded with signed ballots straight into the database.',
    kind: 'ranked-choice',
    choices: Array.from({ length: CHOICES }, (_, index) => `Applicant ${index + 1}`),
    start,
    end: start + 90 * DAY,
    snapshot,
    ...DEFAULT_GOVERNANCE_RULES,
    timestamp: start,
  }
  return signGovernanceMessage(author(), domain, { type: 'Proposal', message })
}

const voteMessage = (i: number, voter: Address, proposal: RankedProposal): VoteMessage => ({
  voter,
  proposal: proposal.id,
  choices: rankedBallot(i),
  reason: '',
  timestamp: proposal.message.start + 60 + i,
})

/** Ballot i on `proposal`, signed by voter i's key, with its power. */
export async function signBallot(
  domain: GovernanceDomain,
  proposal: RankedProposal,
  i: number,
): Promise<SeedVote> {
  const account = privateKeyToAccount(benchVoterKey('ranked', i))
  const message = voteMessage(i, account.address, proposal)
  const { id, signature } = await signGovernanceMessage(account, domain, { type: 'Vote', message })
  return { id, message, signature, power: rankedVoterPower(i) }
}

/**
 * `count` re-rankings by the demo members Ada, Ben and Cleo in turn, dated a second apart from `from` (each
 * later than its voter's last), as POST bodies: they hold power on the demo chain, so the vote path counts them.
 */
export async function signMemberVotes(
  domain: GovernanceDomain,
  proposal: RankedProposal,
  count: number,
  from: number,
): Promise<string[]> {
  const bodies: string[] = []
  for (let i = 0; i < count; i++) {
    const voter = privateKeyToAccount(anvilAccounts[1 + (i % 3)]?.privateKey as Hex)
    const message: VoteMessage = {
      voter: voter.address,
      proposal: proposal.id,
      choices: rankedBallot(1_000_000 + i),
      reason: '',
      timestamp: from + i,
    }
    const { signature } = await signGovernanceMessage(voter, domain, { type: 'Vote', message })
    bodies.push(JSON.stringify({ message, signature }))
  }
  return bodies
}

type Cached = { proposalId: Hex; voters: { address: Address; voteId: Hex; signature: Hex }[] }

/**
 * Every voter's signed ballot on `proposal` with its power: from the cache when it was made for this
 * proposal and count, else signed now (and cached). `signingSeconds` is 0 when cached.
 */
export async function signedBallots(
  domain: GovernanceDomain,
  proposal: RankedProposal,
  count: number,
  cacheDir: string,
  log: (message: string) => void,
): Promise<{ votes: SeedVote[]; signingSeconds: number }> {
  const cachePath = join(cacheDir, `signatures-${count}.json`)
  let cached: Cached | undefined = existsSync(cachePath)
    ? (JSON.parse(readFileSync(cachePath, 'utf8')) as Cached)
    : undefined
  if (cached && (cached.proposalId !== proposal.id || cached.voters.length !== count)) {
    log('ranked-choice: the cached signatures are for another proposal: signing again')
    cached = undefined
  }
  const started = performance.now()
  const fromCache = cached !== undefined
  if (!cached) {
    log(`ranked-choice: signing ${count.toLocaleString('en-US')} ballots (once; cached in ${cachePath})`)
    const voters: Cached['voters'] = []
    for (let i = 0; i < count; i++) {
      const { id, message, signature } = await signBallot(domain, proposal, i)
      voters.push({ address: message.voter, voteId: id, signature })
      if ((i + 1) % 10_000 === 0) log(`ranked-choice: signed ${i + 1} of ${count}`)
    }
    cached = { proposalId: proposal.id, voters }
    mkdirSync(cacheDir, { recursive: true })
    writeFileSync(cachePath, JSON.stringify(cached))
  }
  const signingSeconds = fromCache ? 0 : (performance.now() - started) / 1000
  return {
    votes: cached.voters.map((voter, i) => ({
      id: voter.voteId,
      message: voteMessage(i, voter.address, proposal),
      signature: voter.signature,
      power: rankedVoterPower(i),
    })),
    signingSeconds,
  }
}
