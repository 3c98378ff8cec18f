/**
 * The recount (docs/architecture.md): from a proposal's export bundle and any RPC of the DAO chain,
 * re-verify every signature, recompute every voter's power at the snapshot from the token itself, re-tally
 * under the proposal's frozen rules, and report every difference from what the server published. Runs in
 * the browser (a web worker) and in Node (`npm run recount`); it trusts nothing in the bundle but the chain.
 */
import { getAddress, type Hex, hashTypedData, type PublicClient, parseAbi } from 'viem'
import { getCode, multicall, readContract } from 'viem/actions'
import { tallyJsonSchema } from './api-schemas.ts'
import { MULTICALL3_ADDRESS } from './constants.ts'
import { type LogEntry, logEntryHash, logEntrySchema } from './governance/log.ts'
import {
  GOVERNANCE_DOMAIN_NAME,
  GOVERNANCE_DOMAIN_VERSION,
  proposalId,
  proposalMessageSchema,
  proposalTypedData,
  voteId,
  voteMessageSchema,
  voteTypedData,
} from './governance/messages.ts'
import { countingVotes, voteChoicesProblem } from './governance/rules.ts'
import { chainIdSchema, hexSchema } from './primitives.ts'
import { verifyHashSignature } from './signature.ts'
import { TALLY_VERSION, type Tally, tally } from './tally.ts'
import { z } from './zod.ts'

/** What GET /api/proposals/:id/bundle answers (format guildhall-result-bundle/1). */
export const resultBundleSchema = z.object({
  format: z.literal('guildhall-result-bundle/1'),
  tallyVersion: z.int(),
  domain: z.object({
    name: z.literal(GOVERNANCE_DOMAIN_NAME),
    version: z.literal(GOVERNANCE_DOMAIN_VERSION),
    chainId: chainIdSchema,
    verifyingContract: hexSchema,
  }),
  proposal: z.object({ id: hexSchema, message: proposalMessageSchema, signature: hexSchema }),
  snapshot: z.int().check(z.gte(0)),
  votes: z.array(z.object({ id: hexSchema, message: voteMessageSchema, signature: hexSchema })),
  // The published tally's shape, without refusing fields a later server may add.
  tally: z.object(tallyJsonSchema.shape),
  log: z.array(logEntrySchema),
})
export type ResultBundle = z.infer<typeof resultBundleSchema>

export type RecountProgress = { step: 'signatures' | 'voting power' | 'tally'; done: number; total: number }

export type RecountReport = {
  /** True when nothing differs: every signature and log entry checks, and the tally is the published one. */
  matches: boolean
  differences: string[]
  /** The tally recomputed from the chain and the valid votes. */
  tally: Tally
  votesChecked: number
  votesCounted: number
}

const votesAbi = parseAbi([
  'function getPastVotes(address account, uint256 timepoint) view returns (uint256)',
])
/** Voting-power reads per multicall. */
const MULTICALL_CHUNK = 200

/** Recounts `bundle` against the chain `client` is connected to. */
export async function recount(
  bundle: ResultBundle,
  client: PublicClient,
  onProgress: (progress: RecountProgress) => void = () => {},
): Promise<RecountReport> {
  const differences: string[] = []
  const { domain, proposal } = bundle
  const chainId = await client.request({ method: 'eth_chainId' })
  if (Number(chainId) !== domain.chainId) {
    differences.push(
      `The RPC serves chain ${Number(chainId)}, but this DAO lives on chain ${domain.chainId}.`,
    )
  }
  if (bundle.tallyVersion !== TALLY_VERSION) {
    differences.push(
      `The result was counted with tally version ${bundle.tallyVersion}; this recount uses ${TALLY_VERSION}.`,
    )
  }
  const typedDomain = { ...domain, verifyingContract: getAddress(domain.verifyingContract) }

  // 1. Signatures: the proposal's and every vote's, each against the digest it claims as its id.
  const total = bundle.votes.length + 1
  if (proposalId(typedDomain, proposal.message) !== proposal.id)
    differences.push('The proposal does not match its id: its text or rules were changed after signing.')
  else if (
    !(await verifies(
      client,
      proposalTypedData(typedDomain, proposal.message),
      proposal.message.author,
      proposal.signature,
    ))
  )
    differences.push('The proposal’s signature is not valid for its author.')
  if (proposal.message.snapshot !== bundle.snapshot)
    differences.push(
      `The bundle's snapshot block ${bundle.snapshot} is not the signed one (${proposal.message.snapshot}).`,
    )
  onProgress({ step: 'signatures', done: 1, total })
  const valid: ResultBundle['votes'] = []
  for (const [index, vote] of bundle.votes.entries()) {
    const label = `Vote ${vote.id.slice(0, 10)}… by ${vote.message.voter}`
    if (vote.message.proposal !== proposal.id) differences.push(`${label} is for another proposal.`)
    else if (voteId(typedDomain, vote.message) !== vote.id)
      differences.push(
        `${label} does not match its id: its choices, reason or time were changed after signing.`,
      )
    else if (
      !(await verifies(client, voteTypedData(typedDomain, vote.message), vote.message.voter, vote.signature))
    )
      differences.push(`${label} has a signature that is not valid for its voter.`)
    else {
      // Signed, but not a vote this proposal allows (a server must have refused it): not counted.
      const problem = voteChoicesProblem(proposal.message, vote.message.choices)
      if (problem) differences.push(`${label} was counted though it is not allowed: ${problem}.`)
      else valid.push(vote)
    }
    onProgress({ step: 'signatures', done: index + 2, total })
  }

  // 2. The log: every entry hashes to its fields, and every message in the bundle has its entry.
  const entries = new Map<string, LogEntry>(bundle.log.map((entry) => [entry.messageId, entry]))
  for (const entry of bundle.log) {
    if (logEntryHash(entry) !== entry.hash)
      differences.push(`Log entry ${entry.seq} does not hash to its stored hash.`)
  }
  for (const message of [proposal, ...bundle.votes]) {
    const entry = entries.get(message.id)
    if (!entry) differences.push(`${message.id.slice(0, 10)}… has no entry in the log.`)
    else if (entry.signature !== message.signature)
      differences.push(
        `${message.id.slice(0, 10)}…'s signature differs from the one in log entry ${entry.seq}.`,
      )
  }

  // 3. Voting power of each counting vote, from the token at the snapshot block.
  const counting = [
    ...countingVotes(
      valid.map((vote) => ({ ...vote, voter: vote.message.voter, timestamp: vote.message.timestamp })),
    ).values(),
  ]
  const powers: bigint[] = []
  // Multicall3 where the chain has it at its canonical address (almost every chain); else one call each.
  const code = await getCode(client, { address: MULTICALL3_ADDRESS })
  for (let start = 0; start < counting.length; start += MULTICALL_CHUNK) {
    const contracts = counting.slice(start, start + MULTICALL_CHUNK).map(
      (vote) =>
        ({
          address: typedDomain.verifyingContract,
          abi: votesAbi,
          functionName: 'getPastVotes',
          args: [vote.message.voter, BigInt(bundle.snapshot)],
        }) as const,
    )
    const results =
      code && code !== '0x'
        ? await multicall(client, { allowFailure: false, contracts, multicallAddress: MULTICALL3_ADDRESS })
        : await Promise.all(contracts.map((contract) => readContract(client, contract)))
    powers.push(...results)
    onProgress({ step: 'voting power', done: powers.length, total: counting.length })
  }

  // 4. The tally, compared field by field with the published one.
  const { message } = proposal
  const recounted = tally(
    {
      kind: message.kind,
      choiceCount: message.choices.length,
      quorum: BigInt(message.quorum),
      abstainCountsToQuorum: message.abstainCountsToQuorum,
    },
    counting.map((vote, index) => ({ choices: vote.message.choices, power: powers[index] ?? 0n })),
  )
  onProgress({ step: 'tally', done: 1, total: 1 })
  const published = bundle.tally
  recounted.perChoice.forEach((power, index) => {
    if (String(power) !== published.perChoice[index])
      differences.push(
        `"${message.choices[index]}": recounted ${power}, published ${published.perChoice[index] ?? 'nothing'}.`,
      )
  })
  if (recounted.voters !== published.voters)
    differences.push(`Voters: recounted ${recounted.voters}, published ${published.voters}.`)
  if (recounted.outcome !== published.outcome)
    differences.push(`Outcome: recounted ${recounted.outcome}, published ${published.outcome}.`)
  if (recounted.quorumReached !== published.quorumReached)
    differences.push(
      `Quorum: recounted ${recounted.quorumReached ? 'reached' : 'not reached'}, published the opposite.`,
    )

  return {
    matches: differences.length === 0,
    differences,
    tally: recounted,
    votesChecked: bundle.votes.length,
    votesCounted: counting.length,
  }
}

/** The same check as the server's (signature.ts): ECDSA locally, then ERC-1271 / ERC-6492 on the chain. */
async function verifies(
  client: PublicClient,
  typed: Parameters<typeof hashTypedData>[0],
  address: Hex,
  signature: Hex,
): Promise<boolean> {
  return verifyHashSignature({ address, hash: hashTypedData(typed), signature, client })
}
