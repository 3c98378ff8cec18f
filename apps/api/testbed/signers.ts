// The demo members' keys and the governance messages they sign, for the tests: a message of each kind with
// ordinary defaults (a test names only the fields it is about), signed with core's signGovernanceMessage,
// the one way the seed, the tests and the bench sign.
import {
  BASIC_CHOICES,
  type DelegateStatementMessage,
  type GovernanceDomain,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type ProposalMessage,
  type ProposalMessageV1,
  type ProposalMessageV2,
  signGovernanceMessage,
  type VoteMessage,
  type VoteMessageV1,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { Address, Hex, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'

/** Anvil's account `index`: 0 the deployer, 1–8 the demo members Ada … Hugo, 9 Iris (no tokens). */
export const member = (index: number) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex)
export const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The domain the demo DAO's governance messages are signed under: the local chain and the demo token. */
export const demoDomain = (deployment: { token: Address }): GovernanceDomain =>
  governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })

type Signer = Pick<LocalAccount, 'address' | 'signTypedData'>

/** The fields a test names; any version 2 field (or `version: 2`) makes a version 2 proposal. */
export type ProposalFields = Partial<Omit<ProposalMessageV2, 'version'>> & {
  version?: 1 | 2
  snapshot: number
}

/**
 * A basic proposal by `author` at `snapshot` under the demo DAO's rules (quorum 1,000, threshold 1 token),
 * open from a minute ago for three hours, written half a minute ago; `fields` change any of it. Version 2
 * fields not named default to none: no category, no actions.
 */
export function proposalMessage(
  author: { address: Address },
  { version, category, changesSafeSettings, actions, ...fields }: ProposalFields,
): ProposalMessage {
  const now = nowSeconds()
  const v1: ProposalMessageV1 = {
    author: author.address,
    title: 'Repair the roof',
    body: 'The **roof** leaks.',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: now - 60,
    end: now + 3 * 3600,
    quorum: '1000000000000000000000',
    threshold: '1000000000000000000',
    abstainCountsToQuorum: true,
    timestamp: now - 30,
    ...fields,
  }
  const v2 = version === 2 || category !== undefined || changesSafeSettings !== undefined || actions
  if (!v2) return version === 1 ? { ...v1, version } : v1
  return {
    ...v1,
    version: 2,
    category: category ?? '',
    changesSafeSettings: changesSafeSettings ?? false,
    actions: actions ?? [],
  }
}

/** `proposalMessage(author, fields)` signed by `author`: `{ message, signature, id }`. */
export const signProposal = (author: Signer, domain: GovernanceDomain, fields: ProposalFields) =>
  signGovernanceMessage(author, domain, { type: 'Proposal', message: proposalMessage(author, fields) })

/** A vote's fields for a test: version 2 (ADR 059) when `version` is 2 or `weights` are given. */
export type VoteFields = Partial<Omit<VoteMessageV1, 'version'>> & { version?: 1 | 2; weights?: number[] }

/** A vote by `voter` on `proposal` for choice 1, with no reason, written now; `fields` change any of it. */
export const signVote = (
  voter: Signer,
  domain: GovernanceDomain,
  { proposal, version, weights, ...fields }: VoteFields & { proposal: Hex },
) => {
  const v1 = { voter: voter.address, proposal, choices: [1], reason: '', timestamp: nowSeconds(), ...fields }
  const message: VoteMessage =
    version !== 2 && weights === undefined
      ? { ...v1, ...(version === 1 && { version }) }
      : { ...v1, version: 2, weights: weights ?? [] }
  return signGovernanceMessage(voter, domain, { type: 'Vote', message })
}

/** A statement by `delegate`, written now; `fields` change any of it. */
export const signStatement = (
  delegate: Signer,
  domain: GovernanceDomain,
  fields: Partial<DelegateStatementMessage> = {},
) =>
  signGovernanceMessage(delegate, domain, {
    type: 'DelegateStatement',
    message: {
      delegate: delegate.address,
      statement: 'I read **every** proposal and explain each vote.',
      timestamp: nowSeconds(),
      ...fields,
    },
  })
