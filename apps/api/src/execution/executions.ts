// A passed proposal's execution through the DAO's Safe (ADR 051). The app derives the one Safe transaction
// the signed actions allow at the next free nonce (queue), collects the owners' signatures of its hash
// (each a governance log entry), and reads what the Safe did: executed (its ExecutionSuccess names the
// derived hash), superseded (another transaction used the nonce), or nothing yet. The Safe's signers carry
// the decision out; the app only proves whether they did.
import {
  type ExecutionState,
  expectedSafeTransaction,
  FINALITY_DELAY_SECONDS,
  type ProposalExecution,
  proposalState,
  recoverSigner,
  type SafeConfirmation,
  type SafeSignatureRequest,
  type SafeTransaction,
  type SafeTransactionJson,
  safeSignatureId,
} from '@guildhall/core'
import { and, asc, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import { type Address, type Hex, isAddressEqual, parseSignature } from 'viem'
import { chainRead, seconds } from '../governance/deps.ts'
import { appendLog } from '../governance/log.ts'
import { proposalResult } from '../governance/results.ts'
import type { Db } from '../platform/db/client.ts'
import { isUniqueViolation } from '../platform/db/errors.ts'
import {
  proposals,
  type SafeExecutionState,
  type StoredProposal,
  safeExecutions,
  safeSignatures,
} from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { ExecutionDeps } from './deps.ts'
import {
  approvedOwners,
  executionsAfter,
  multiSendFor,
  readSafe,
  readSafeAtHead,
  type SafeState,
} from './safe-chain.ts'
import { simulateActions } from './simulation.ts'

/**
 * The app's pending queue for `safe`: entries still `queued` whose proposal has not expired (an expired
 * entry can no longer be signed, so it holds no nonce).
 */
function pendingQueue(deps: ExecutionDeps, safe: Address, now: number) {
  const { delaySeconds, expirySeconds } = deps
  const endedAfter = now - FINALITY_DELAY_SECONDS - delaySeconds - expirySeconds
  return and(
    eq(safeExecutions.safe, safe),
    eq(safeExecutions.state, 'queued'),
    sql`${safeExecutions.proposalId} in (select ${proposals.id} from ${proposals} where ${proposals.end} > ${endedAfter})`,
  )
}

/** One key for pg_advisory_xact_lock: queueing takes turns, so two proposals never get one nonce. */
const QUEUE_LOCK_KEY = 0x7361666574 // "safet"

type ExecutionRow = typeof safeExecutions.$inferSelect

/** A Safe transaction with its whole numbers as decimal strings (JSON, the stored row). */
function safeTransactionJson(transaction: SafeTransaction): SafeTransactionJson {
  return {
    ...transaction,
    value: String(transaction.value),
    safeTxGas: String(transaction.safeTxGas),
    baseGas: String(transaction.baseGas),
    gasPrice: String(transaction.gasPrice),
    nonce: String(transaction.nonce),
  }
}

/** The signed actions of a proposal; none for a v1 proposal or an empty list. */
const actionsOf = (proposal: StoredProposal) =>
  proposal.message.version === 2 ? proposal.message.actions : []

/** When a passed proposal may be queued, and until when; null before it is final and passed. */
function window(deps: ExecutionDeps, proposal: StoredProposal) {
  const executableAfter = proposal.end + FINALITY_DELAY_SECONDS + deps.delaySeconds
  return { executableAfter, expiresAt: executableAfter + deps.expirySeconds }
}

function requireSafe(deps: ExecutionDeps): Address {
  if (!deps.safe)
    throw new ApiError(
      409,
      'no_treasury',
      'This DAO has no treasury Safe configured (TREASURY_SAFE), so nothing can be executed.',
    )
  return deps.safe
}

/**
 * Settles a queued entry against the chain once the Safe's nonce has passed it: executed when the
 * execution that used its nonce ran its hash, superseded otherwise. Idempotent: only a `queued` row moves.
 */
async function settle(deps: ExecutionDeps, row: ExecutionRow, safeNow: SafeState): Promise<ExecutionRow> {
  if (row.state !== 'queued' || safeNow.nonce <= row.nonce) return row
  const { client } = deps.governance
  const executions = await chainRead(() =>
    executionsAfter(client, row.safe as Address, BigInt(row.queuedBlock)),
  )
  const used = executions[row.nonce - row.safeNonceAtQueue]
  const executed = used?.success === true && used.safeTxHash === row.safeTxHash
  const block = used ? await chainRead(() => client.getBlock({ blockNumber: used.blockNumber })) : undefined
  const outcome = {
    state: (executed ? 'executed' : 'superseded') as SafeExecutionState,
    outcomeTransaction: used?.transactionHash ?? null,
    outcomeSafeTxHash: used?.safeTxHash ?? null,
    outcomeBlock: used ? Number(used.blockNumber) : null,
    outcomeTimestamp: block ? Number(block.timestamp) : null,
  }
  const [updated] = await deps.governance.database.db
    .update(safeExecutions)
    .set(outcome)
    .where(and(eq(safeExecutions.safeTxHash, row.safeTxHash), eq(safeExecutions.state, 'queued')))
    .returning()
  return updated ?? { ...row, ...outcome }
}

async function confirmations(
  deps: ExecutionDeps,
  row: ExecutionRow,
  owners: readonly Address[] | null,
): Promise<SafeConfirmation[]> {
  const signed = await deps.governance.database.db
    .select()
    .from(safeSignatures)
    .where(eq(safeSignatures.safeTxHash, row.safeTxHash))
    .orderBy(asc(safeSignatures.logSeq))
  const list: SafeConfirmation[] = signed.map((signature) => ({
    owner: signature.owner as Address,
    via: 'signature',
    signature: signature.signature as Hex,
    logSeq: signature.logSeq,
  }))
  // An owner may instead approve the hash on chain (approveHash); it counts the same at execution.
  if (owners && row.state === 'queued') {
    const unsigned = owners.filter((owner) => !list.some((s) => isAddressEqual(s.owner, owner)))
    const approved = await chainRead(() =>
      approvedOwners(deps.governance.client, row.safe as Address, row.safeTxHash as Hex, unsigned),
    )
    for (const owner of approved) list.push({ owner, via: 'approved-hash', signature: null, logSeq: null })
  }
  return list
}

async function entryJson(deps: ExecutionDeps, row: ExecutionRow, owners: readonly Address[] | null) {
  return {
    nonce: row.nonce,
    transaction: row.transaction,
    safeTxHash: row.safeTxHash as Hex,
    domainHash: row.domainHash as Hex,
    messageHash: row.messageHash as Hex,
    queuedAt: seconds(row.queuedAt),
    signatures: await confirmations(deps, row, owners),
  }
}

/**
 * Whether some nonce from the Safe's current one up to `nonce` has no live entry of the app: a transaction
 * outside the app must use it first.
 */
async function waitsOnOutsideNonce(deps: ExecutionDeps, safe: Address, from: number, nonce: number) {
  if (from >= nonce) return false
  const rows = await deps.governance.database.db
    .select({ nonce: safeExecutions.nonce })
    .from(safeExecutions)
    .where(
      and(
        pendingQueue(deps, safe, seconds(deps.governance.now())),
        gte(safeExecutions.nonce, from),
        sql`${safeExecutions.nonce} < ${nonce}`,
      ),
    )
  const queued = new Set(rows.map((row) => row.nonce))
  for (let n = from; n < nonce; n += 1) if (!queued.has(n)) return true
  return false
}

/** A proposal's execution as it stands: the state, the current entry (settled against the chain), the history. */
export async function proposalExecution(
  deps: ExecutionDeps,
  proposal: StoredProposal,
): Promise<ProposalExecution> {
  const now = seconds(deps.governance.now())
  const empty = {
    executableAfter: null,
    expiresAt: null,
    safeNonce: null,
    queued: null,
    executed: null,
    history: [],
  }
  if (actionsOf(proposal).length === 0) return { state: 'none', ...empty }
  const result = await proposalResult(deps.governance, proposal)
  if (proposalState(proposal, now) !== 'final' || result.outcome !== 'passed')
    return { state: 'not-passed', ...empty }
  const { executableAfter, expiresAt } = window(deps, proposal)
  const rows = await deps.governance.database.db
    .select()
    .from(safeExecutions)
    .where(eq(safeExecutions.proposalId, proposal.id))
    .orderBy(desc(safeExecutions.queuedAt), desc(safeExecutions.nonce))
  const safeNow = deps.safe
    ? await chainRead(() => readSafeAtHead(deps.governance.client, deps.safe as Address))
    : null
  const settled = safeNow ? await Promise.all(rows.map((row) => settle(deps, row, safeNow))) : rows
  const current = settled.find((row) => row.state !== 'superseded')
  const latest = settled[0]
  const owners = safeNow?.owners ?? null
  const history = await Promise.all(
    settled
      .filter((row) => row.state === 'superseded')
      .map(async (row) => ({
        ...(await entryJson(deps, row, null)),
        replacedBy: (row.outcomeSafeTxHash as Hex | null) ?? null,
      })),
  )
  let state: ExecutionState
  if (current?.state === 'executed') state = 'executed'
  else if (now >= expiresAt) state = 'expired'
  else if (current && safeNow)
    state = (await waitsOnOutsideNonce(deps, current.safe as Address, safeNow.nonce, current.nonce))
      ? 'waiting-earlier-nonce'
      : 'queued'
  else if (latest?.state === 'superseded') state = 'superseded'
  else state = now < executableAfter ? 'waiting-delay' : 'ready-to-queue'
  return {
    state,
    executableAfter,
    expiresAt,
    safeNonce: safeNow?.nonce ?? null,
    queued: current
      ? {
          ...(await entryJson(deps, current, owners)),
          threshold: safeNow?.threshold ?? 0,
          owners: owners ?? [],
        }
      : null,
    executed:
      current?.state === 'executed' && current.outcomeTransaction
        ? {
            transactionHash: current.outcomeTransaction as Hex,
            blockNumber: current.outcomeBlock ?? 0,
            timestamp: current.outcomeTimestamp ?? 0,
          }
        : null,
    history,
  }
}

/** Why a proposal in `state` cannot be queued (409), or null when it can. */
function queueRefusal(state: ExecutionState, executableAfter: number | null): ApiError | null {
  switch (state) {
    case 'none':
      return new ApiError(409, 'no_actions', 'This proposal has no actions: there is nothing to execute.')
    case 'not-passed':
      return new ApiError(409, 'not_passed', 'Only a final, passed proposal can be queued for the Safe.')
    case 'waiting-delay':
      return new ApiError(
        409,
        'objection_delay',
        `The objection delay has not run out: this proposal can be queued from ${new Date((executableAfter ?? 0) * 1000).toISOString()}.`,
      )
    case 'expired':
      return new ApiError(
        409,
        'expired',
        'This proposal’s time to be executed has run out; it can no longer be queued.',
      )
    case 'queued':
    case 'waiting-earlier-nonce':
      return new ApiError(
        409,
        'already_queued',
        'This proposal’s Safe transaction is already queued: sign it, or execute it.',
      )
    case 'executed':
      return new ApiError(409, 'already_executed', 'The Safe has already executed this proposal.')
    default:
      return null
  }
}

/**
 * Queues a passed proposal: simulates its batch as the Safe (refused with the revert when it fails), then
 * derives its Safe transaction at the next free nonce: the Safe's own, or the one after the app's pending
 * queue. Anyone may queue; the hash is the signed actions', so nobody can choose what is signed.
 */
export async function queueExecution(
  deps: ExecutionDeps,
  proposal: StoredProposal,
): Promise<ProposalExecution> {
  const safe = requireSafe(deps)
  const before = await proposalExecution(deps, proposal)
  const refusal = queueRefusal(before.state, before.executableAfter)
  if (refusal) throw refusal
  const { client } = deps.governance
  const multiSend = await chainRead(() => multiSendFor(client, safe))
  if (!multiSend)
    throw new ApiError(
      409,
      'no_multisend',
      'The canonical MultiSendCallOnly for this Safe’s version is not deployed on this chain, so its batch cannot run.',
    )
  const simulation = await simulateActions(deps, actionsOf(proposal))
  if (!simulation.success)
    throw new ApiError(
      422,
      'simulation_failed',
      `The Safe would revert this batch: ${simulation.revert ?? 'no reason given'}. Nothing was queued.`,
    )
  const safeNow = await chainRead(() => readSafe(client, safe))
  try {
    await deps.governance.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${QUEUE_LOCK_KEY})`)
      const [last] = await tx
        .select({ nonce: safeExecutions.nonce })
        .from(safeExecutions)
        .where(
          and(
            eq(safeExecutions.safe, safe),
            eq(safeExecutions.state, 'queued'),
            gte(safeExecutions.nonce, safeNow.nonce),
          ),
        )
        .orderBy(desc(safeExecutions.nonce))
        .limit(1)
      const nonce = last ? last.nonce + 1 : safeNow.nonce
      const derived = expectedSafeTransaction(proposal.message, nonce, {
        chainId: deps.chainId,
        safe,
        multiSend,
      })
      if (!derived)
        throw new ApiError(409, 'no_actions', 'This proposal has no actions: there is nothing to execute.')
      await tx.insert(safeExecutions).values({
        safeTxHash: derived.safeTxHash,
        proposalId: proposal.id,
        safe,
        nonce,
        transaction: safeTransactionJson(derived.transaction),
        domainHash: derived.domainHash,
        messageHash: derived.messageHash,
        state: 'queued',
        queuedBlock: Number(safeNow.blockNumber),
        safeNonceAtQueue: safeNow.nonce,
      })
    })
  } catch (error) {
    // Two requests at once: the other one queued it.
    if (isUniqueViolation(error)) throw queueRefusal('queued', null) as ApiError
    throw error
  }
  return proposalExecution(deps, proposal)
}

const badSignature = (message: string) => new ApiError(401, 'bad_signature', message)

/**
 * Records an owner's signature of the proposal's queued Safe transaction: the hash must be the one derived
 * from the signed actions, the signer an owner of the Safe now, the signature theirs (ECDSA, v 27 or 28,
 * as execTransaction takes it). Stored with its log entry in one transaction; the same signature again is
 * a replay (200).
 */
export async function addSignature(
  deps: ExecutionDeps,
  proposal: StoredProposal,
  { owner, safeTxHash, signature }: SafeSignatureRequest,
): Promise<{ execution: ProposalExecution; created: boolean }> {
  const safe = requireSafe(deps)
  const before = await proposalExecution(deps, proposal)
  const current = before.queued
  if (before.state === 'expired')
    throw new ApiError(
      409,
      'expired',
      'This proposal’s time to be executed has run out; it can no longer be signed.',
    )
  if (!current) throw new ApiError(409, 'not_queued', 'This proposal has no queued Safe transaction to sign.')
  if (before.state === 'executed')
    throw new ApiError(409, 'already_executed', 'The Safe has already executed this proposal.')
  if (safeTxHash !== current.safeTxHash)
    throw new ApiError(
      422,
      'wrong_hash',
      `This is not the hash of the proposal’s queued Safe transaction (${current.safeTxHash}, nonce ${current.nonce}).`,
    )
  if (!current.owners.some((o) => isAddressEqual(o, owner)))
    throw new ApiError(403, 'not_owner', `${owner} is not an owner of the treasury Safe ${safe}.`)
  const existing = current.signatures.find((s) => isAddressEqual(s.owner, owner) && s.via === 'signature')
  if (existing) {
    if (existing.signature === signature) return { execution: before, created: false }
    throw new ApiError(409, 'already_signed', `${owner} has already signed this Safe transaction.`)
  }
  // Safe's ECDSA form: r, s and v 27 or 28 (contract owners' signatures are not accepted yet).
  let v: bigint | undefined
  try {
    v = parseSignature(signature).v
  } catch {
    v = undefined
  }
  if (signature.length !== 132 || (v !== 27n && v !== 28n))
    throw badSignature(
      'A Safe signature here is 65 bytes of ECDSA (r, s, v with v 27 or 28), signed by the owner’s key.',
    )
  // On the app's signature threads (ADR 063), like votes' checks.
  const signer = await (deps.governance.recover ?? recoverSigner)(safeTxHash, signature)
  if (!signer || !isAddressEqual(signer, owner))
    throw badSignature('The signature does not match this Safe transaction hash and this owner.')

  try {
    await deps.governance.database.db.transaction(async (tx) => {
      const logged = await appendLog(
        tx,
        {
          kind: 'safe-signature',
          messageId: safeSignatureId(safeTxHash, owner),
          proposalId: proposal.id as Hex,
          signature,
        },
        deps.governance.observer,
      )
      await tx.insert(safeSignatures).values({ safeTxHash, owner, signature, logSeq: logged.seq })
    })
  } catch (error) {
    // The same owner's signature arrived twice at once: the other request stored it.
    if (!isUniqueViolation(error)) throw error
    const again = await proposalExecution(deps, proposal)
    const stored = again.queued?.signatures.find((s) => isAddressEqual(s.owner, owner))
    if (stored?.signature === signature) return { execution: again, created: false }
    throw new ApiError(409, 'already_signed', `${owner} has already signed this Safe transaction.`)
  }
  return { execution: await proposalExecution(deps, proposal), created: true }
}

/**
 * The proposals whose queued Safe transactions these hashes are, for the treasury index's history: an
 * execution the app queued names its proposal; any other is "executed outside Guildhall".
 */
export function executionProposals(db: Db) {
  return async (safeTxHashes: Hex[]): Promise<Map<Hex, { id: Hex; title: string }>> => {
    if (safeTxHashes.length === 0) return new Map()
    const rows = await db
      .select({ safeTxHash: safeExecutions.safeTxHash, id: proposals.id, message: proposals.message })
      .from(safeExecutions)
      .innerJoin(proposals, eq(proposals.id, safeExecutions.proposalId))
      .where(
        inArray(
          safeExecutions.safeTxHash,
          safeTxHashes.map((hash) => hash.toLowerCase()),
        ),
      )
    return new Map(
      rows.map((row) => [row.safeTxHash as Hex, { id: row.id as Hex, title: row.message.title }]),
    )
  }
}
