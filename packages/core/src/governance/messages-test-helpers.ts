// Shared by the governance messages' tests: an author (anvil account 1), the local domain, and a
// proposal, a vote (both versions) and a delegate statement of theirs.
import { privateKeyToAccount } from 'viem/accounts'
import {
  BASIC_CHOICES,
  type DelegateStatementMessage,
  governanceDomain,
  type ProposalMessage,
  proposalId,
  type VoteMessageV1,
  type VoteMessageV2,
} from './messages.ts'

export const author = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)
export const domain = governanceDomain({
  chainId: 31337,
  token: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
})

export const proposal: ProposalMessage = {
  author: author.address,
  title: 'Fund the community hall',
  body: '## Why\nWe need a roof.',
  kind: 'basic',
  choices: [...BASIC_CHOICES],
  start: 1_800_000_000,
  end: 1_800_000_000 + 7 * 24 * 3600,
  snapshot: 120,
  quorum: '1000000000000000000000',
  threshold: '1000000000000000000',
  abstainCountsToQuorum: true,
  timestamp: 1_799_999_000,
}
export const vote = (overrides: Partial<VoteMessageV1> = {}): VoteMessageV1 => ({
  voter: author.address,
  proposal: proposalId(domain, proposal),
  choices: [1],
  reason: 'Roofs matter.',
  timestamp: 1_800_000_100,
  ...overrides,
})
/** A version 2 vote (ADR 059): weights, one per picked choice. */
export const voteV2 = (overrides: Partial<VoteMessageV2> = {}): VoteMessageV2 => ({
  ...vote(),
  version: 2,
  weights: [1],
  ...overrides,
})

export const statement = (overrides: Partial<DelegateStatementMessage> = {}): DelegateStatementMessage => ({
  delegate: author.address,
  statement: '## Why me\nI read every proposal.',
  timestamp: 1_800_000_200,
  ...overrides,
})
