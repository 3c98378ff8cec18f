import {
  basisPoints,
  formatBasisPoints,
  GOVERNANCE_LIMITS,
  type ProposalDetail,
  STATE_LABELS,
  sharesInBasisPoints,
  shortenAddress,
  timeLine,
  type VoteMessage,
  voteTypedData,
} from '@guildhall/core'
import type { RecountProgress, RecountReport } from '@guildhall/core/recount'
import type { QueryClient } from '@tanstack/react-query'
import { type FormEvent, useDeferredValue, useEffect, useRef, useState } from 'react'
import { Link, useParams } from 'react-router'
import type { Hex } from 'viem'
import { useAccount, useSignTypedData } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { useTokenAmount as useAmount } from '../../lib/token.ts'
import { walletFailure } from '../../lib/wallet-errors.ts'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { exactTime } from './format.ts'
import { useCastVote } from './queries/cast-vote.ts'
import { proposalQueryOptions, useProposal } from './queries/proposal.ts'
import { useVotingPower } from './queries/voting-power.ts'
import type { RecountMessage, RecountRequest } from './recount.worker.ts'
import { useDaoChain } from './use-dao-chain.ts'
import './proposals.css'

// The markdown renderer and its sanitiser (≈ 26 KiB gzip) are their own chunk: requested here, as the page's
// code runs, so they download beside the proposal's data, and evaluated in a task of their own.
const markdown = preloadable(
  () => import('./markdown.tsx'),
  (m) => m.Markdown,
)
void markdown.load().catch(() => {}) // Preloaded's lazy path tries again, and reports

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
const OUTCOME_LABELS = { passed: 'Passed', rejected: 'Rejected', 'no-quorum': 'No quorum' } as const

/**
 * Puts the proposal in the cache and the markdown renderer in place before the page first renders, when
 * the page is opened directly.
 */
export async function prepareProposalPage(queryClient: QueryClient, id: string): Promise<void> {
  await Promise.all([queryClient.prefetchQuery(proposalQueryOptions(id)), markdown.load()])
}

/** A proposal: its text, where it stands, the results, your vote, and the recount. */
export function ProposalPage() {
  const { id = '' } = useParams()
  const { data: proposal, error } = useProposal(id)
  // The heading renders with the answer (the server's shell of this page shows it already); the rest
  // (text, results, vote panel) is the biggest render here, so it follows deferred: React renders it in
  // slices once the heading is in place (ADR 014). A deferred value can still be the previous
  // proposal's for a moment after a navigation.
  const deferred = useDeferredValue(proposal, undefined)
  const details = deferred?.id === id ? deferred : undefined
  if (error) return <p role="alert">This proposal could not be loaded. {describeRequestError(error)}</p>
  if (!proposal) return <p className="muted">Loading the proposal…</p>
  return (
    <article className="page">
      <p>
        <Link to="/proposals">← Proposals</Link>
      </p>
      {/* The server writes this heading into the page's shell too (renderProposalHeader, apps/api/src/
          app-shell.ts): a change here must be made there (e2e: governance.spec checks nothing moves). */}
      <header className="page-header">
        <span className={`state state-${proposal.state}`}>{STATE_LABELS[proposal.state]}</span>
        <h1>{proposal.message.title}</h1>
        <p className="muted">
          By {shortenAddress(proposal.author)} ·{' '}
          <span title={exactTime(proposal.state === 'pending' ? proposal.start : proposal.end)}>
            {timeLine(proposal, proposal.now)}
          </span>{' '}
          · snapshot block {proposal.snapshot}
        </p>
      </header>
      {details ? (
        <div className="grid">
          <Card title="Proposal" testId="proposal-body">
            {details.message.body ? (
              <Preloaded code={markdown} props={{ text: details.message.body }} />
            ) : (
              <p className="muted">No description.</p>
            )}
          </Card>
          {/* A column of its own: the cards keep their gap, and the proposal's text keeps its own height. */}
          <div className="proposal-side">
            <Results proposal={details} />
            <VotePanel proposal={details} />
            <Verify proposal={details} />
          </div>
        </div>
      ) : null}
    </article>
  )
}

function Results({ proposal }: { proposal: ProposalDetail }) {
  const amount = useAmount()
  const { tally, message } = proposal
  const quorum = BigInt(message.quorum)
  // Rounded to add up to 100 %, as a reader adds them.
  const shares = sharesInBasisPoints(message.choices.map((_, index) => BigInt(tally.perChoice[index] ?? '0')))
  return (
    <Card title="Results" testId="results">
      {message.choices.map((choice, index) => {
        const power = tally.perChoice[index] ?? '0'
        const share = shares[index] ?? 0n
        return (
          <div className="result-row" key={choice}>
            <div>
              <strong>{choice}</strong> · {amount(power)} · {formatBasisPoints(share)}
            </div>
            <div className="result-bar" aria-hidden="true">
              <span style={{ width: `${Number(share) / 100}%` }} />
            </div>
          </div>
        )
      })}
      <p data-testid="quorum">
        Quorum: {amount(tally.quorumPower)} of {amount(quorum)} (
        {formatBasisPoints(basisPoints(BigInt(tally.quorumPower), quorum))}){' '}
        {tally.quorumReached ? '· reached' : ''}
      </p>
      <p data-testid="voters">
        {tally.voters} {tally.voters === 1 ? 'voter' : 'voters'}
        {proposal.state === 'closed' || proposal.state === 'final'
          ? ` · ${OUTCOME_LABELS[tally.outcome]}`
          : ''}
      </p>
    </Card>
  )
}

/** "Your vote": asks for a wallet, then (with sign-in on) a session, then offers the account's vote. */
function VotePanel({ proposal }: { proposal: ProposalDetail }) {
  const { address, isConnected } = useAccount()
  const gate = useSessionGate()
  if (!isConnected || !address) {
    return (
      <Card title="Your vote" testId="vote-panel">
        <p className="muted">Connect a wallet to vote.</p>
      </Card>
    )
  }
  if (gate !== 'open') {
    return (
      <Card title="Your vote" testId="vote-panel">
        <SessionGateNotice gate={gate} purpose="vote" />
      </Card>
    )
  }
  // Choices, reason and messages belong to one account: another account (or the same one after signing
  // in again) starts afresh. A change of chain keeps them: the member is led through the switch mid-vote.
  return <AccountVotePanel key={address.toLowerCase()} proposal={proposal} />
}

function AccountVotePanel({ proposal }: { proposal: ProposalDetail }) {
  const dao = useDaoChain()
  const amount = useAmount()
  const castVote = useCastVote()
  const { signTypedDataAsync } = useSignTypedData()
  const power = useVotingPower(proposal.id, dao.address)
  const [picked, setPicked] = useState<number[]>([])
  const [reason, setReason] = useState('')
  const [status, setStatus] = useState<{ text: string; error: boolean }>()
  const [busy, setBusy] = useState(false)
  const { message } = proposal
  const mine = proposal.votes.find((vote) => vote.voter === dao.address)

  if (!dao.isConnected || !dao.address) return null
  const closedText =
    proposal.state === 'pending'
      ? 'Voting has not started yet.'
      : proposal.state === 'active'
        ? null
        : 'Voting has ended.'
  const zero = power.data && BigInt(power.data.power) === 0n
  const disabledReason =
    closedText ??
    (zero
      ? 'You have no voting power on this proposal.'
      : picked.length === 0
        ? 'Pick a choice first.'
        : null)

  async function onVote(event: FormEvent) {
    event.preventDefault()
    if (!dao.domain || !dao.address || disabledReason) return
    const vote: VoteMessage = {
      voter: dao.address,
      proposal: proposal.id as Hex,
      choices: [...picked].sort((a, b) => a - b),
      reason: reason.trim(),
      // A change of mind must win over the vote it replaces: a later timestamp, even within the same second.
      timestamp: Math.max(Math.floor(Date.now() / 1000), (mine?.timestamp ?? 0) + 1),
    }
    setBusy(true)
    setStatus({ text: 'Sign your vote in your wallet…', error: false })
    try {
      const signature = await signTypedDataAsync(voteTypedData(dao.domain, vote))
      setStatus({ text: 'Submitting your vote…', error: false })
      await castVote.mutateAsync({ id: proposal.id, signed: { message: vote, signature } })
      setStatus({ text: 'Your vote is recorded. You can change it until voting ends.', error: false })
    } catch (e) {
      setStatus({ text: walletFailure(e, 'the signature'), error: true })
    } finally {
      setBusy(false)
    }
  }

  const single = message.kind !== 'approval'
  return (
    <Card title="Your vote" testId="vote-panel">
      {power.error ? (
        <p role="alert">Your voting power could not be read. {describeRequestError(power.error)}</p>
      ) : !power.data ? (
        <p className="muted">Reading your voting power at block {proposal.snapshot}…</p>
      ) : (
        <p data-testid="voting-power">
          Your voting power at block {power.data.snapshot}: <strong>{amount(power.data.power)}</strong>
        </p>
      )}
      {power.data?.reason ? (
        <p className="notice notice-info" data-testid="zero-power-reason">
          {power.data.reason.message}
        </p>
      ) : null}
      {mine ? (
        <p data-testid="my-vote">
          You voted {mine.choices.map((choice) => message.choices[choice - 1]).join(', ')}
          {proposal.state === 'active' ? '; vote again to change it.' : '.'}
        </p>
      ) : null}
      {closedText ? <p className="muted">{closedText}</p> : null}
      {proposal.state === 'active' && !zero ? (
        <form onSubmit={onVote}>
          <fieldset className="choices">
            <legend className="muted">{single ? 'Pick one' : 'Pick any you approve'}</legend>
            {message.choices.map((choice, index) => (
              <label key={choice}>
                <input
                  type={single ? 'radio' : 'checkbox'}
                  name="choice"
                  checked={picked.includes(index + 1)}
                  onChange={(e) =>
                    setPicked(
                      single
                        ? [index + 1]
                        : e.target.checked
                          ? [...picked, index + 1]
                          : picked.filter((p) => p !== index + 1),
                    )
                  }
                />
                {choice}
              </label>
            ))}
          </fieldset>
          <label className="form">
            <span>
              Reason <span className="hint muted">(optional)</span>
            </span>
            <textarea
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={GOVERNANCE_LIMITS.reasonMax}
              rows={2}
            />
          </label>
          {dao.wrongChain ? (
            <SwitchChainButton purpose="to vote" primary />
          ) : (
            <div className="vote-action">
              <button
                type="submit"
                className="button primary"
                disabled={busy || Boolean(disabledReason)}
                aria-describedby={disabledReason ? 'vote-disabled-reason' : undefined}
              >
                {mine ? 'Change vote' : 'Vote'}
              </button>
              {/* Said beside the button, not in a tooltip: a tooltip never shows on a touch screen. */}
              {disabledReason ? (
                <p id="vote-disabled-reason" className="muted">
                  {disabledReason}
                </p>
              ) : null}
            </div>
          )}
        </form>
      ) : zero ? (
        <div className="vote-action">
          <button type="button" className="button primary" disabled aria-describedby="vote-disabled-reason">
            Vote
          </button>
          <p id="vote-disabled-reason" className="muted">
            {disabledReason}
          </p>
        </div>
      ) : null}
      {status ? (
        <p role={status.error ? 'alert' : 'status'} className={status.error ? 'error' : undefined}>
          {status.text}
        </p>
      ) : null}
    </Card>
  )
}

const STEP_LABELS: Record<RecountProgress['step'], string> = {
  signatures: 'Checking signatures',
  'voting power': 'Reading voting power from the chain',
  tally: 'Counting',
}

function Verify({ proposal }: { proposal: ProposalDetail }) {
  const dao = useDaoChain()
  const [progress, setProgress] = useState<RecountProgress>()
  const [report, setReport] = useState<RecountReport>()
  const [error, setError] = useState<string>()
  const worker = useRef<Worker>(undefined)
  useEffect(() => () => worker.current?.terminate(), [])

  function start() {
    if (!dao.rpcUrl) return
    worker.current?.terminate()
    setReport(undefined)
    setError(undefined)
    const recounter = new Worker(new URL('./recount.worker.ts', import.meta.url), { type: 'module' })
    worker.current = recounter
    recounter.addEventListener('message', (event: MessageEvent<RecountMessage>) => {
      const data = event.data
      if (data.type === 'progress') setProgress(data.progress)
      else {
        if (data.type === 'done') setReport(data.report)
        else setError(`The recount could not run: ${data.message}`)
        setProgress(undefined)
        recounter.terminate()
      }
    })
    const request: RecountRequest = { bundleUrl: `/api/proposals/${proposal.id}/bundle`, rpcUrl: dao.rpcUrl }
    recounter.postMessage(request)
  }

  return (
    <Card title="Verify this result" testId="verify">
      <p className="muted">
        Re-check every signature and recompute every voter's power from the chain, in your browser.
      </p>
      <p className="actions">
        <button type="button" className="button" onClick={start} disabled={Boolean(progress)}>
          Verify this result
        </button>
        <a
          href={`/api/proposals/${proposal.id}/bundle`}
          download={`proposal-${proposal.id.slice(0, 10)}.json`}
        >
          Download the result bundle
        </a>
      </p>
      {progress ? (
        <p role="status">
          {STEP_LABELS[progress.step]}: {progress.done} of {progress.total}…
        </p>
      ) : null}
      {report?.matches ? (
        <p role="status" data-testid="recount-result">
          The result matches: {plural(report.votesChecked, 'vote signature')} checked,{' '}
          {plural(report.votesCounted, 'vote')} counted.
        </p>
      ) : report ? (
        <div role="alert" data-testid="recount-result">
          <p>The result differs from the published one:</p>
          <ul className="differences">
            {report.differences.map((difference) => (
              <li key={difference}>{difference}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </Card>
  )
}
