// A proposal's execution through the DAO's Safe (ADR 051): where it stands in words, the Safe transaction's
// hashes for a hardware wallet, who has signed, and the one next step for whoever may take it: queue,
// sign (an owner), execute (anyone, once enough have signed), queue again (superseded).
import {
  type ExecutionState,
  expectedSafeTransaction,
  MULTI_SEND_CALL_ONLY,
  type ProposalDetail,
  type ProposalExecution,
  type SafeTransaction,
} from '@guildhall/core'
import type { ReactNode } from 'react'
import { type Address, type Hex, isAddressEqual } from 'viem'
import { useAccount } from 'wagmi'
import { Card } from '../../../components/card.tsx'
import { SignedActionStatusLine } from '../../../components/signed-action-status.tsx'
import { describeRequestError } from '../../../lib/api.ts'
import { useDaoChain } from '../../../lib/dao-chain.ts'
import { MemberName } from '../../../lib/names.tsx'
import { usePublicConfig } from '../../../lib/public-config-context.tsx'
import { SwitchChainButton } from '../../../lib/switch-chain-button.tsx'
import { useTreasurySummary } from '../../../lib/treasury-summary.ts'
import { exactTime } from '../format.ts'
import { useExecution } from '../queries/execution.ts'
import { useQueueExecution } from '../queries/queue-execution.ts'
import { useSignExecution } from '../queries/sign-execution.ts'
import { onExecuteIntent, useExecute } from './use-execute.ts'

/** The state as a badge reads it. */
const EXECUTION_STATE_LABELS: Record<ExecutionState, string> = {
  none: 'No actions',
  'not-passed': 'Not executable',
  'waiting-delay': 'Objection delay',
  'ready-to-queue': 'Ready to queue',
  queued: 'Queued',
  executed: 'Executed',
  superseded: 'Superseded',
  'waiting-earlier-nonce': 'Waiting on an earlier nonce',
  expired: 'Expired',
}

const SIGN_WORDS = {
  signing: 'Sign the Safe transaction in your wallet…',
  submitting: 'Submitting your signature…',
  done: 'Your signature is recorded.',
}

/** The queue entry as the execution answer carries it. */
type QueuedExecution = NonNullable<ProposalExecution['queued']>

const multiSendAddresses: readonly string[] = Object.values(MULTI_SEND_CALL_ONLY).flatMap((release) =>
  [release.address, ...release.otherAddresses].map((address) => address.toLowerCase()),
)

/**
 * Whether the queued transaction is exactly the one the signed proposal's actions make at its nonce, as
 * this browser derives it (the server could be wrong, or lying): a canonical MultiSendCallOnly, and the same
 * hash. Owners sign the transaction derived here, never the server's.
 */
export function checkQueued(
  proposal: ProposalDetail,
  queued: QueuedExecution,
  { chainId, safe }: { chainId: number; safe: Address },
): { ok: true; transaction: SafeTransaction } | { ok: false; reason: string } {
  if (!multiSendAddresses.includes(queued.transaction.to.toLowerCase())) {
    return { ok: false, reason: `it calls ${queued.transaction.to}, not Safe's MultiSendCallOnly` }
  }
  const expected = expectedSafeTransaction(proposal.message, queued.nonce, {
    chainId,
    safe,
    multiSend: queued.transaction.to,
  })
  if (!expected) return { ok: false, reason: 'this proposal carries no actions' }
  if (expected.safeTxHash !== queued.safeTxHash) {
    return {
      ok: false,
      reason: `its hash is ${queued.safeTxHash}; the proposal's actions make ${expected.safeTxHash}`,
    }
  }
  return { ok: true, transaction: expected.transaction }
}

/** The state in words, with the times that bound it. */
function StateSentence({ execution, proposal }: { execution: ProposalExecution; proposal: ProposalDetail }) {
  const after = execution.executableAfter
  const until = execution.expiresAt
  const untilText = until ? ` until ${exactTime(until)}` : ''
  switch (execution.state) {
    case 'none':
      return <>This proposal carries no actions.</>
    case 'not-passed':
      return proposal.state === 'final' ? (
        <>The proposal did not pass: the Safe does not carry out its actions.</>
      ) : (
        <>
          If the proposal passes, the Safe’s signers can carry out its actions once the objection delay is
          over.
        </>
      )
    case 'waiting-delay':
      return (
        <>
          Passed. Objection delay: it can be queued for the Safe from {after ? exactTime(after) : 'soon'}
          {untilText}.
        </>
      )
    case 'ready-to-queue':
      return <>Passed. Anyone can queue it for the Safe{untilText}; the Safe’s signers then sign it.</>
    case 'queued':
      return (
        <>
          Queued for the Safe at nonce {execution.queued?.nonce}. Once enough signers have signed, anyone can
          execute it{untilText}.
        </>
      )
    case 'waiting-earlier-nonce':
      return (
        <>
          Queued at nonce {execution.queued?.nonce}, but the Safe is at nonce {execution.safeNonce}: a
          transaction Guildhall did not queue must use nonce {execution.safeNonce} first (the Safe runs them
          in order). Signers can sign meanwhile.
        </>
      )
    case 'executed':
      return (
        <>
          Executed by the Safe
          {execution.executed
            ? ` in block ${execution.executed.blockNumber} on ${exactTime(execution.executed.timestamp)}`
            : ''}
          .
        </>
      )
    case 'superseded':
      return (
        <>
          Superseded: another Safe transaction used nonce {execution.history[0]?.nonce}, so the signatures
          collected no longer apply. Queue it again, and the signers sign again{untilText}.
        </>
      )
    case 'expired':
      return (
        <>
          Expired: not executed by {until ? exactTime(until) : 'its expiry'}. It can no longer be queued or
          executed.
        </>
      )
  }
}

/** A transaction hash, linked to the chain's explorer where it has one. */
function TransactionLink({ hash }: { hash: Hex }) {
  const { chains, token } = usePublicConfig()
  const explorer = chains.find((chain) => chain.id === token?.chainId)?.blockExplorerUrl
  return explorer ? (
    <a href={`${explorer.replace(/\/$/, '')}/tx/${hash}`} target="_blank" rel="noreferrer">
      <code>{hash}</code>
    </a>
  ) : (
    <code>{hash}</code>
  )
}

/** The hashes a signer compares on a hardware wallet, and who has signed. */
function QueuedDetails({ queued }: { queued: QueuedExecution }) {
  const signed = (owner: Address) =>
    queued.signatures.find((confirmation) => isAddressEqual(confirmation.owner, owner))
  return (
    <>
      <dl className="execution-hashes">
        <dt>Safe transaction hash</dt>
        <dd>
          <code data-testid="safe-tx-hash">{queued.safeTxHash}</code>
        </dd>
        <dt>Domain hash</dt>
        <dd>
          <code data-testid="domain-hash">{queued.domainHash}</code>
        </dd>
        <dt>Message hash</dt>
        <dd>
          <code data-testid="message-hash">{queued.messageHash}</code>
        </dd>
      </dl>
      <p data-testid="signature-count">
        <strong>
          {queued.signatures.length} of {queued.threshold}
        </strong>{' '}
        signatures
      </p>
      <ul className="execution-signers" aria-label="Signers">
        {queued.owners.map((owner) => {
          const confirmation = signed(owner)
          return (
            <li key={owner}>
              <MemberName address={owner} />:{' '}
              {confirmation
                ? confirmation.via === 'approved-hash'
                  ? 'approved on-chain'
                  : 'signed'
                : 'not signed yet'}
            </li>
          )
        })}
      </ul>
    </>
  )
}

/**
 * The panel's body for one execution answer: everything but the wallet. `controls` is the step the viewer
 * may take (queue, sign, execute), rendered by the panel.
 */
export function ExecutionDetails({
  execution,
  proposal,
  controls,
}: {
  execution: ProposalExecution
  proposal: ProposalDetail
  controls?: ReactNode
}) {
  return (
    <div data-testid="execution">
      <p>
        <span className={`state execution-${execution.state}`} data-testid="execution-state">
          {EXECUTION_STATE_LABELS[execution.state]}
        </span>
      </p>
      <p data-testid="execution-sentence">
        <StateSentence execution={execution} proposal={proposal} />
      </p>
      {execution.state === 'executed' && execution.executed ? (
        <p data-testid="execution-transaction">
          Transaction: <TransactionLink hash={execution.executed.transactionHash} />
        </p>
      ) : null}
      {execution.queued && execution.state !== 'executed' ? (
        <QueuedDetails queued={execution.queued} />
      ) : null}
      {controls}
    </div>
  )
}

/**
 * "Execution": reads GET /api/proposals/:id/execution (again on each of the stream's execution events, or
 * while the Safe's outcome may come), and offers the viewer's next step.
 */
export function ExecutionPanel({ proposal, live }: { proposal: ProposalDetail; live: boolean }) {
  const execution = useExecution(proposal.id, live)
  if (proposal.actions.length === 0) return null
  return (
    <Card title="Execution" testId="execution-panel">
      {execution.error && !execution.data ? (
        <p role="alert">
          Where the execution stands could not be read. {describeRequestError(execution.error)}
        </p>
      ) : !execution.data ? (
        <p className="muted">Reading where the execution stands…</p>
      ) : (
        <ExecutionDetails
          execution={execution.data}
          proposal={proposal}
          controls={<ExecutionControls execution={execution.data} proposal={proposal} />}
        />
      )}
    </Card>
  )
}

/** Queue (anyone), sign (an owner who has not), execute (anyone, at the threshold), each with its outcome. */
function ExecutionControls({
  execution,
  proposal,
}: {
  execution: ProposalExecution
  proposal: ProposalDetail
}) {
  const dao = useDaoChain()
  const { address } = useAccount()
  const treasury = useTreasurySummary()
  const queue = useQueueExecution(proposal.id)
  const sign = useSignExecution()
  const chainId = dao.token?.chainId
  const executor = useExecute({ proposalId: proposal.id, title: proposal.message.title, chainId })
  const safe = treasury.data?.safe?.address
  const { queued } = execution

  if (execution.state === 'ready-to-queue' || execution.state === 'superseded') {
    return (
      <>
        <button
          type="button"
          className="button primary"
          disabled={queue.isPending}
          onClick={() => queue.mutate()}
        >
          {queue.isPending
            ? 'Queueing…'
            : execution.state === 'superseded'
              ? 'Queue again for the Safe'
              : 'Queue for the Safe'}
        </button>
        {queue.error ? (
          <p role="alert" className="error">
            {describeRequestError(queue.error)}
          </p>
        ) : null}
      </>
    )
  }
  if (!queued || (execution.state !== 'queued' && execution.state !== 'waiting-earlier-nonce')) return null
  if (treasury.error) {
    return (
      <p role="alert" className="error">
        Could not load Safe information. {describeRequestError(treasury.error)}
      </p>
    )
  }
  if (!safe || chainId === undefined) return null
  const check = checkQueued(proposal, queued, { chainId, safe })
  if (!check.ok) {
    return (
      <p role="alert" className="error" data-testid="execution-mismatch">
        Do not sign: the queued transaction is not the one this proposal’s actions make ({check.reason}).
      </p>
    )
  }
  if (!address) {
    return (
      <p className="muted">
        Connect a wallet to sign (Safe owners) or execute: use <strong>Connect Wallet</strong> at the top of
        the page.
      </p>
    )
  }
  if (dao.wrongChain) return <SwitchChainButton purpose="to sign or execute" primary />
  const isOwner = queued.owners.some((owner) => isAddressEqual(owner, address))
  const hasSigned = queued.signatures.some((confirmation) => isAddressEqual(confirmation.owner, address))
  const ready = queued.signatures.length >= queued.threshold && execution.state === 'queued'
  const executed = executor.progress.step === 'confirmed'
  return (
    <div className="execution-controls">
      {isOwner && !hasSigned && !ready ? (
        <button
          type="button"
          className="button primary"
          disabled={sign.busy}
          onClick={() =>
            void sign.run({
              proposalId: proposal.id,
              owner: address,
              chainId,
              safe,
              safeTxHash: queued.safeTxHash,
              transaction: check.transaction,
            })
          }
        >
          Sign
        </button>
      ) : null}
      <SignedActionStatusLine status={sign.status} words={SIGN_WORDS} />
      {ready && !executed ? (
        <button
          type="button"
          className="button primary"
          disabled={executor.busy}
          {...onExecuteIntent}
          onClick={() => void executor.execute(safe, queued.transaction, queued.signatures)}
        >
          Execute
        </button>
      ) : null}
      <p className="status" role="status" data-testid="execution-progress">
        {executor.progressText}
      </p>
      {executor.error ? (
        <p role="alert" className="error">
          {executor.error}
        </p>
      ) : null}
    </div>
  )
}
