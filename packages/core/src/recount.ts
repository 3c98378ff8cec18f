/**
 * The recount (docs/architecture.md): from a proposal's export bundle and any RPC of the DAO chain,
 * re-verify every signature, recompute every voter's power at the snapshot from the token itself, re-tally
 * under the proposal's frozen rules, and report every difference from what the server published. Runs in
 * the browser (a web worker) and in Node (`npm run recount`); it trusts nothing in the bundle but the chain.
 */

import { JSONParser } from '@streamparser/json'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hex,
  isAddressEqual,
  keccak256,
  type PublicClient,
  parseAbi,
  recoverAddress,
  toEventSelector,
} from 'viem'
import { getCode, getTransaction, getTransactionReceipt, multicall, readContract } from 'viem/actions'
import { safeTransactionJsonSchema } from './api/execution.ts'
import { type RankedRoundJson, tallyJsonSchema } from './api/tallies.ts'
import { formatIssues } from './config.ts'
import { MULTICALL3_ADDRESS } from './constants.ts'
import { type LogEntry, logEntrySchema, safeSignatureId } from './governance/log.ts'
import {
  governanceDomainSchema,
  proposalId,
  proposalMessageSchema,
  voteMessageSchema,
  voteWeights,
} from './governance/messages.ts'
import { countingVotes, type ProposalKind, voteChoicesProblem } from './governance/rules.ts'
import { hexSchema } from './primitives.ts'
import { BundleFormatError, chainProblem, loggedProblem } from './recount-checks.ts'
import { type RecountWork, recountWorkHere, type VoteCheck } from './recount-work.ts'
import { verifyHashSignature } from './signature.ts'
import { type RankedRound, TALLY_VERSION, type Tally, tally } from './tally.ts'
import { isCanonicalMultiSendCallOnly } from './treasury/multi-send.ts'
import { execTransactionAbi, expectedSafeTransaction } from './treasury/safe-transaction.ts'
import { z } from './zod.ts'

/** A vote as the bundle carries it: the signed message, its signature and its id (the digest). */
export type { ThreadBundle } from './discussion/thread-bundle.ts'
export { THREAD_BUNDLE_FORMAT, threadBundleSchema } from './discussion/thread-bundle.ts'
export type { ThreadRecountReport } from './discussion/thread-recount.ts'
export { recountThread } from './discussion/thread-recount.ts'
export { BundleFormatError } from './recount-checks.ts'
export type { RecountWork, VoteCheck, VoteToCheck } from './recount-work.ts'
export { recountWorkHere } from './recount-work.ts'

const bundleVoteSchema = z.object({ id: hexSchema, message: voteMessageSchema, signature: hexSchema })
type BundleVote = z.infer<typeof bundleVoteSchema>

/**
 * A proposal's execution through the treasury Safe as the bundle carries it (ADR 051): each Safe
 * transaction the server queued for it, the owners' signatures with their log entries, and the Ethereum
 * transaction that executed it.
 */
const bundleExecutionSchema = z.object({
  safe: hexSchema,
  entries: z.array(
    z.object({
      nonce: z.int().check(z.gte(0)),
      transaction: safeTransactionJsonSchema,
      safeTxHash: hexSchema,
      state: z.enum(['queued', 'executed', 'superseded']),
      signatures: z.array(z.object({ owner: hexSchema, signature: hexSchema, log: logEntrySchema })),
      /** The Ethereum transaction that ran it; null until it is executed. */
      executedIn: z.nullable(hexSchema),
    }),
  ),
})
type BundleExecution = z.infer<typeof bundleExecutionSchema>

/**
 * What GET /api/proposals/:id/bundle answers (format guildhall-result-bundle/1): one JSON object whose
 * fields come in this order, so a reader can check the votes as they arrive without holding the bundle:
 * the head (format … voteCount), then `votes`, then `log`.
 */
export const resultBundleSchema = z.object({
  format: z.literal('guildhall-result-bundle/1'),
  tallyVersion: z.int(),
  domain: governanceDomainSchema,
  proposal: z.object({ id: hexSchema, message: proposalMessageSchema, signature: hexSchema }),
  snapshot: z.int().check(z.gte(0)),
  // The published tally's shape, without refusing fields a later server may add.
  tally: z.object(tallyJsonSchema.shape),
  /** How many votes follow: the recount's progress. */
  voteCount: z.int().check(z.gte(0)),
  votes: z.array(bundleVoteSchema),
  log: z.array(logEntrySchema),
  /** After the log; absent from bundles written before executions, and null for a proposal never queued. */
  execution: z.optional(z.nullable(bundleExecutionSchema)),
})
type ResultBundle = z.infer<typeof resultBundleSchema>

const bundleHeadSchema = z.object({
  format: resultBundleSchema.shape.format,
  tallyVersion: resultBundleSchema.shape.tallyVersion,
  domain: resultBundleSchema.shape.domain,
  proposal: resultBundleSchema.shape.proposal,
  snapshot: resultBundleSchema.shape.snapshot,
  tally: resultBundleSchema.shape.tally,
  voteCount: resultBundleSchema.shape.voteCount,
})
type BundleHead = z.infer<typeof bundleHeadSchema>
const HEAD_FIELDS = Object.keys(bundleHeadSchema.shape)

/** A bundle's bytes or text as they arrive: a file's or a response's chunks, or the whole text at once. */
export type BundleSource = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>

/** A response body's chunks, for a BundleSource (not every browser iterates a ReadableStream itself). */
export async function* responseChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      yield value
    }
  } finally {
    reader.releaseLock()
  }
}

type BundlePart =
  | { part: 'head'; head: BundleHead }
  | { part: 'vote'; index: number; vote: BundleVote }
  | { part: 'log'; entry: LogEntry }
  | { part: 'execution'; execution: BundleExecution | null }

/**
 * Reads a bundle as it arrives: its head once complete, then each vote and each log entry, checked for
 * shape one by one. It holds one vote at a time, never the bundle (80 MB at 100,000 votes).
 */
async function* bundleParts(source: BundleSource): AsyncGenerator<BundlePart> {
  const parser = new JSONParser({
    paths: [...HEAD_FIELDS.map((field) => `$.${field}`), '$.votes.*', '$.log.*', '$.execution'],
    keepStack: false,
  })
  const head: Record<string, unknown> = {}
  let headDone = false
  const ready: BundlePart[] = []
  const parsed = <T>(schema: z.ZodMiniType<T>, value: unknown, where: string): T => {
    const result = schema.safeParse(value)
    if (!result.success) throw new BundleFormatError(`${where}: ${formatIssues(result.error)}`)
    return result.data
  }
  const finishHead = () => {
    if (headDone) return
    ready.push({ part: 'head', head: parsed(bundleHeadSchema, head, 'The bundle') })
    headDone = true
  }
  parser.onValue = ({ value, key, stack }) => {
    const within = stack[1]?.key
    if (within === 'votes' || within === 'log') {
      finishHead()
      if (within === 'votes') {
        const index = Number(key)
        ready.push({ part: 'vote', index, vote: parsed(bundleVoteSchema, value, `Vote ${index + 1}`) })
      } else ready.push({ part: 'log', entry: parsed(logEntrySchema, value, `Log entry ${Number(key) + 1}`) })
    } else if (key === 'execution') {
      finishHead()
      ready.push({
        part: 'execution',
        execution: parsed(z.nullable(bundleExecutionSchema), value, 'The execution'),
      })
    } else if (typeof key === 'string') head[key] = value
  }
  try {
    for await (const chunk of source) {
      parser.write(chunk)
      yield* ready.splice(0)
    }
    if (!parser.isEnded) parser.end()
  } catch (error) {
    if (error instanceof BundleFormatError) throw error
    throw new BundleFormatError(
      `The bundle is not complete JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  finishHead()
  yield* ready.splice(0)
}

export type RecountProgress = { step: 'signatures' | 'voting power' | 'tally'; done: number; total: number }

export type RecountReport = {
  /** True when nothing differs: every signature and log entry checks, and the tally is the published one. */
  matches: boolean
  differences: string[]
  /** The proposal recounted, as the bundle carries it. */
  proposal: ResultBundle['proposal']
  /** The tally recomputed from the chain and the valid votes. */
  tally: Tally
  votesChecked: number
  votesCounted: number
  /** The Safe transactions of the proposal's execution checked (0 without one). */
  executionsChecked: number
}

const votesAbi = parseAbi([
  'function getPastVotes(address account, uint256 timepoint) view returns (uint256)',
])
/** Voting-power reads per multicall, each sent as one eth_call (ADR 085). */
const MULTICALL_CHUNK = 200
/** Multicalls asked at once. */
const POWER_READS_AT_ONCE = 4
/**
 * Votes (and log entries) checked at once: work that runs on several threads (the browser's and the CLI's)
 * gets this many to share out, while the next chunk is read (ADR 082).
 */
const CHECK_CHUNK = 512

export type RecountOptions = {
  /**
   * Where each vote's id is hashed and its signer recovered, and each log entry hashed: this thread by
   * default; the browser spreads it over its cores (ADR 084), the CLI its recovery (`recountWorkHere`).
   */
  work?: RecountWork
}

/**
 * Recounts the bundle `source` (read as it arrives) against the chain `client` is connected to. Throws
 * BundleFormatError when the source is not a result bundle.
 */
export async function recount(
  source: BundleSource,
  client: PublicClient,
  onProgress: (progress: RecountProgress) => void = () => {},
  { work = recountWorkHere() }: RecountOptions = {},
): Promise<RecountReport> {
  const differences: string[] = []
  // The server's check (signature.ts) of a signature over `digest` (a message's id, once the id is shown to
  // be its digest): ECDSA, then ERC-1271 / ERC-6492 on the chain. `signer` is the ECDSA signer already
  // recovered from that digest, for a vote (its work did it).
  const verifies = (digest: Hex, address: Hex, signature: Hex, signer?: Address | null) =>
    verifyHashSignature({
      address,
      hash: digest,
      signature,
      client,
      ...(signer !== undefined && { recover: async () => signer }),
    })
  const parts = bundleParts(source)
  const first = await parts.next()
  if (first.done || first.value.part !== 'head') throw new BundleFormatError('The bundle has no head.')
  const { head: bundle } = first.value
  const { domain, proposal } = bundle
  const wrongChain = await chainProblem(client, domain.chainId)
  if (wrongChain) differences.push(wrongChain)
  const versionProblem = tallyVersionProblem(bundle.tallyVersion, proposal.message.kind)
  if (versionProblem) differences.push(versionProblem)
  const typedDomain = { ...domain, verifyingContract: getAddress(domain.verifyingContract) }

  // 1. Signatures: the proposal's and every vote's, each against the digest it claims as its id.
  const total = bundle.voteCount + 1
  if (proposalId(typedDomain, proposal.message) !== proposal.id)
    differences.push('The proposal does not match its id: its text or rules were changed after signing.')
  else if (
    // The digest is the id, just checked: the signature is checked against it.
    !(await verifies(proposal.id, proposal.message.author, proposal.signature))
  )
    differences.push('The proposal’s signature is not valid for its author.')
  if (proposal.message.snapshot !== bundle.snapshot)
    differences.push(
      `The bundle's snapshot block ${bundle.snapshot} is not the signed one (${proposal.message.snapshot}).`,
    )
  onProgress({ step: 'signatures', done: 1, total })
  const valid: BundleVote[] = []
  /** Each message's signature, to find it again in the log: the proposal's and every vote's. */
  const signed = new Map<string, Hex>([[proposal.id, proposal.signature]])
  const logged = new Map<string, LogEntry>()
  let votesChecked = 0
  let execution: BundleExecution | null = null
  /** A vote's difference, or undefined when it counts. */
  const voteProblem = async (vote: BundleVote, check: VoteCheck): Promise<string | undefined> => {
    const label = `Vote ${vote.id.slice(0, 10)}… by ${vote.message.voter}`
    if (vote.message.proposal !== proposal.id) return `${label} is for another proposal.`
    if (check.id !== vote.id)
      return `${label} does not match its id: its choices, ${vote.message.version === 2 ? 'weights, ' : ''}reason or time were changed after signing.`
    if (!(await verifies(vote.id, vote.message.voter, vote.signature, check.signer)))
      return `${label} has a signature that is not valid for its voter.`
    // Signed, but not a vote this proposal allows (a server must have refused it): not counted.
    const problem = voteChoicesProblem(proposal.message, vote.message.choices, voteWeights(vote.message))
    return problem ? `${label} was counted though it is not allowed: ${problem}.` : undefined
  }
  let votesSettled = 0
  /** The votes checked in a chunk, recorded in the bundle's order once its checks are in. */
  const checkVotes = async (votes: BundleVote[]) => {
    const checks = await work.checkVotes(typedDomain, votes)
    const problems = await Promise.all(
      votes.map((vote, index) => voteProblem(vote, checks[index] ?? { id: null, signer: null })),
    )
    return () => {
      for (const [index, vote] of votes.entries()) {
        const problem = problems[index]
        if (problem) differences.push(problem)
        else valid.push(vote)
      }
      votesSettled += votes.length
      onProgress({ step: 'signatures', done: votesSettled + 1, total: Math.max(total, votesSettled + 1) })
    }
  }
  /** The log entries hashed in a chunk, recorded in the bundle's order once their hashes are in. */
  const hashLogEntries = async (entries: LogEntry[]) => {
    const hashes = await work.hashLogEntries(entries)
    return () => {
      for (const [index, entry] of entries.entries())
        if (hashes[index] !== entry.hash)
          differences.push(`Log entry ${entry.seq} does not hash to its stored hash.`)
    }
  }
  let unchecked: BundleVote[] = []
  let unhashed: LogEntry[] = []
  /** Chunks being checked, oldest first: the next chunk is read while one is checked, never more. */
  const checking: Promise<() => void>[] = []
  const settleOldest = async () => {
    const record = await checking.shift()
    record?.()
  }
  const handOut = async (chunk: Promise<() => void>) => {
    // Awaited by settleOldest once the next chunk is read; until then a failure (the chain, a worker) must
    // not count as unhandled.
    chunk.catch(() => {})
    checking.push(chunk)
    if (checking.length > 1) await settleOldest()
  }
  const handOutVotes = () => {
    const votes = unchecked
    unchecked = []
    return handOut(checkVotes(votes))
  }
  const handOutLogEntries = () => {
    const entries = unhashed
    unhashed = []
    return handOut(hashLogEntries(entries))
  }
  for await (const part of parts) {
    if (part.part === 'execution') {
      execution = part.execution
      continue
    }
    if (part.part === 'log') {
      const { entry } = part
      if (unchecked.length > 0) await handOutVotes()
      logged.set(entry.messageId, entry)
      unhashed.push(entry)
      if (unhashed.length === CHECK_CHUNK) await handOutLogEntries()
      continue
    }
    if (part.part !== 'vote') continue
    const { vote } = part
    votesChecked += 1
    signed.set(vote.id, vote.signature)
    unchecked.push(vote)
    if (unchecked.length === CHECK_CHUNK) await handOutVotes()
  }
  if (unchecked.length > 0) await handOutVotes()
  if (unhashed.length > 0) await handOutLogEntries()
  while (checking.length > 0) await settleOldest()
  if (votesChecked !== bundle.voteCount)
    differences.push(`The bundle announces ${bundle.voteCount} votes but carries ${votesChecked}.`)

  // 2. The log: every message in the bundle has its entry, with the same signature.
  for (const [id, signature] of signed) {
    const entry = logged.get(id)
    if (!entry) differences.push(`${id.slice(0, 10)}… has no entry in the log.`)
    else if (entry.signature !== signature)
      differences.push(`${id.slice(0, 10)}…'s signature differs from the one in log entry ${entry.seq}.`)
  }

  // 3. Voting power of each counting vote, from the token at the snapshot block.
  const counting = [
    ...countingVotes(
      valid.map((vote) => ({ ...vote, voter: vote.message.voter, timestamp: vote.message.timestamp })),
    ).values(),
  ]
  // Multicall3 where the chain has it at its canonical address (almost every chain); else one call each.
  const code = await getCode(client, { address: MULTICALL3_ADDRESS })
  const readPowers = (votes: BundleVote[]): Promise<bigint[]> => {
    const contracts = votes.map(
      (vote) =>
        ({
          address: typedDomain.verifyingContract,
          abi: votesAbi,
          functionName: 'getPastVotes',
          // Lower case: the encoder then takes it without checksumming it again (a keccak each), as the
          // bundle's schema already did.
          args: [vote.message.voter.toLowerCase() as Address, BigInt(bundle.snapshot)],
        }) as const,
    )
    return code && code !== '0x'
      ? multicall(client, {
          allowFailure: false,
          contracts,
          multicallAddress: MULTICALL3_ADDRESS,
          // One eth_call per group (ADR 085): by default viem cuts it into calls of 1 KB of calldata, 15 reads each.
          batchSize: 0,
        })
      : Promise.all(contracts.map((contract) => readContract(client, contract)))
  }
  const groups: BundleVote[][] = []
  for (let start = 0; start < counting.length; start += MULTICALL_CHUNK)
    groups.push(counting.slice(start, start + MULTICALL_CHUNK))
  const groupPowers: bigint[][] = []
  let nextGroup = 0
  let powersRead = 0
  // A few reads at once, each taking the next group: the chain's round trips overlap (ADR 082).
  await Promise.all(
    Array.from({ length: Math.min(POWER_READS_AT_ONCE, groups.length) }, async () => {
      while (nextGroup < groups.length) {
        const index = nextGroup++
        const group = groups[index] as BundleVote[]
        groupPowers[index] = await readPowers(group)
        powersRead += group.length
        onProgress({ step: 'voting power', done: powersRead, total: counting.length })
      }
    }),
  )
  const powers = groupPowers.flat()

  // 4. The tally, compared field by field with the published one.
  const { message } = proposal
  const recounted = tally(
    {
      kind: message.kind,
      choiceCount: message.choices.length,
      quorum: BigInt(message.quorum),
      abstainCountsToQuorum: message.abstainCountsToQuorum,
    },
    counting.map((vote, index) => ({
      choices: vote.message.choices,
      weights: voteWeights(vote.message),
      power: powers[index] ?? 0n,
    })),
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
  if (recounted.leading.join() !== published.leading.join())
    differences.push(
      `Leading: recounted ${choiceNames(message.choices, recounted.leading)}, published ${choiceNames(message.choices, published.leading)}.`,
    )
  if (recounted.rounds)
    differences.push(...roundDifferences(message.choices, recounted.rounds, published.rounds))
  if (recounted.quorumReached !== published.quorumReached)
    differences.push(
      `Quorum: recounted ${recounted.quorumReached ? 'reached' : 'not reached'}, published the opposite.`,
    )

  // 5. The execution: the Safe transaction the signed actions make, its signatures, what the Safe ran.
  let executionsChecked = 0
  if (execution) {
    differences.push(
      ...(await executionDifferences(client, { chainId: domain.chainId, proposal, execution })),
    )
    executionsChecked = execution.entries.length
  }

  return {
    matches: differences.length === 0,
    differences,
    proposal,
    tally: recounted,
    votesChecked,
    votesCounted: counting.length,
    executionsChecked,
  }
}

/** The kinds tally version 1 counted, exactly as version 2 still does. */
const VERSION_1_KINDS: readonly ProposalKind[] = ['basic', 'single-choice', 'approval']

/**
 * Why a bundle's tally version cannot be recounted as published, or null: this recount's own version, or
 * version 1 for a proposal of a kind version 1 counted (version 2 counts those alike, ADR 058).
 */
function tallyVersionProblem(version: number, kind: ProposalKind): string | null {
  if (version === TALLY_VERSION || (version === 1 && VERSION_1_KINDS.includes(kind))) return null
  return `The result was counted with tally version ${version}; this recount uses ${TALLY_VERSION}.`
}

/** Choices by name, quoted, for a sentence: "Alice", "Bob"; "none" for none. */
const choiceNames = (names: readonly string[], choices: readonly number[]): string =>
  choices.length === 0 ? 'none' : choices.map((choice) => `"${names[choice - 1] ?? choice}"`).join(', ')

/** Every difference between the recounted ranked-choice rounds and the published ones, a sentence each. */
function roundDifferences(
  names: readonly string[],
  recounted: readonly RankedRound[],
  published: readonly RankedRoundJson[] | undefined,
): string[] {
  if (!published) return ['The published result of this ranked-choice proposal has no rounds.']
  const differences: string[] = []
  if (recounted.length !== published.length)
    differences.push(`Rounds: recounted ${recounted.length}, published ${published.length}.`)
  const shown = (power: bigint | string | null | undefined) =>
    power === null ? 'eliminated' : power === undefined ? 'nothing' : String(power)
  recounted.forEach((round, index) => {
    const other = published[index]
    if (!other) return
    const label = `Round ${index + 1}`
    round.perChoice.forEach((power, choice) => {
      if (shown(power) !== shown(other.perChoice[choice]))
        differences.push(
          `${label}, "${names[choice]}": recounted ${shown(power)}, published ${shown(other.perChoice[choice])}.`,
        )
    })
    if (String(round.continuing) !== other.continuing)
      differences.push(
        `${label}, continuing power: recounted ${round.continuing}, published ${other.continuing}.`,
      )
    if (round.eliminated.join() !== other.eliminated.join())
      differences.push(
        `${label}, eliminated: recounted ${choiceNames(names, round.eliminated)}, published ${choiceNames(names, other.eliminated)}.`,
      )
  })
  return differences
}

const EXECUTION_SUCCESS = toEventSelector('ExecutionSuccess(bytes32,uint256)')

/**
 * Every way the bundle's execution is not what the signed proposal allows: a queued transaction other than
 * the one its actions make at that nonce (through the canonical MultiSendCallOnly), a signature that is not
 * its owner's or not logged as it is, an executed transaction whose input is not that transaction or whose
 * Safe did not report it executed. Signatures are checked as ECDSA (owners that are contracts: later).
 */
async function executionDifferences(
  client: PublicClient,
  {
    chainId,
    proposal,
    execution,
  }: { chainId: number; proposal: ResultBundle['proposal']; execution: BundleExecution },
): Promise<string[]> {
  const differences: string[] = []
  const safe = getAddress(execution.safe)
  for (const entry of execution.entries) {
    const label = `The Safe transaction at nonce ${entry.nonce}`
    const multiSend = getAddress(entry.transaction.to)
    const code = await getCode(client, { address: multiSend })
    if (!code || !isCanonicalMultiSendCallOnly(multiSend, keccak256(code))) {
      differences.push(`${label} does not go through the canonical MultiSendCallOnly.`)
      continue
    }
    const expected = expectedSafeTransaction(proposal.message, entry.nonce, { chainId, safe, multiSend })
    if (!expected) {
      differences.push(`${label} was queued for a proposal without actions.`)
      continue
    }
    if (expected.safeTxHash !== entry.safeTxHash.toLowerCase()) {
      differences.push(`${label} is not the one the signed actions make (its hash differs).`)
      continue
    }
    for (const { owner, signature, log } of entry.signatures) {
      const who = `${label}: ${owner}'s signature`
      const signer = await recoverAddress({ hash: expected.safeTxHash, signature }).catch(() => null)
      if (!signer || !isAddressEqual(signer, owner as Address)) differences.push(`${who} is not theirs.`)
      const logProblem = loggedProblem(log, {
        kind: 'safe-signature',
        messageId: safeSignatureId(expected.safeTxHash, getAddress(owner)),
        signature,
      })
      if (logProblem === 'hash')
        differences.push(`${who}: log entry ${log.seq} does not hash to its stored hash.`)
      else if (logProblem === 'differs') differences.push(`${who} differs from log entry ${log.seq}.`)
    }
    if (!entry.executedIn) continue
    const hash = entry.executedIn
    const transaction = await getTransaction(client, { hash }).catch(() => null)
    if (!transaction) {
      differences.push(`${label}: the chain has no transaction ${hash}.`)
      continue
    }
    let input: readonly unknown[] | undefined
    try {
      const decoded = decodeFunctionData({ abi: execTransactionAbi, data: transaction.input })
      input = decoded.args
    } catch {
      input = undefined
    }
    const t = expected.transaction
    const wanted = [
      t.to,
      t.value,
      t.data,
      t.operation,
      t.safeTxGas,
      t.baseGas,
      t.gasPrice,
      t.gasToken,
      t.refundReceiver,
    ]
    const same =
      transaction.to !== null &&
      isAddressEqual(transaction.to, safe) &&
      input !== undefined &&
      wanted.every((field, index) =>
        typeof field === 'string'
          ? String(input?.[index]).toLowerCase() === field.toLowerCase()
          : input?.[index] === field,
      )
    if (!same) {
      differences.push(
        `${label}: transaction ${hash} is not an execution of it by the Safe (its input differs).`,
      )
      continue
    }
    const receipt = await getTransactionReceipt(client, { hash })
    const reported = receipt.logs.some(
      (log) =>
        isAddressEqual(log.address, safe) &&
        log.topics[0] === EXECUTION_SUCCESS &&
        (log.topics[1] ?? log.data.slice(0, 66)).toLowerCase() === expected.safeTxHash,
    )
    if (receipt.status !== 'success' || !reported)
      differences.push(`${label}: the Safe did not report transaction ${hash} as its successful execution.`)
  }
  return differences
}
