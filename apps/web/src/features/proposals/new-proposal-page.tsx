import {
  BASIC_CHOICES,
  formatIssues,
  GOVERNANCE_LIMITS,
  PROPOSAL_KIND_HELP,
  PROPOSAL_KIND_LABELS,
  PROPOSAL_KINDS,
  type ProposalKind,
  type ProposalMessage,
  proposalMessageSchema,
  QUADRATIC_WARNING,
} from '@guildhall/core'
import { type FormEvent, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import type { Address } from 'viem'
import { getBlockNumber } from 'viem/actions'
import { useClient } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { useTokenAmount } from '../../lib/token.ts'
import { useTreasurySummary } from '../../lib/treasury-summary.ts'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { ActionBuilder, actionFindings } from './actions/action-builder.tsx'
import type { ActionEntry } from './actions/action-list.tsx'
import { useCreateProposal } from './queries/create-proposal.ts'
import './proposals.css'

const DAY = 24 * 60 * 60

/** A title and text to start from, passed by the page that opened this one (a topic's "Propose from this topic"). */
function prefillOf(state: unknown): { title: string; body: string } {
  const prefill = (state as { prefill?: { title?: unknown; body?: unknown } } | null)?.prefill
  return {
    title: typeof prefill?.title === 'string' ? prefill.title : '',
    body: typeof prefill?.body === 'string' ? prefill.body : '',
  }
}

/** Write, sign and submit a proposal; its snapshot is the block before the current one. */
export function NewProposalPage() {
  const dao = useDaoChain()
  const client = useClient({ chainId: dao.token?.chainId })
  const navigate = useNavigate()
  const createProposal = useCreateProposal()
  const amount = useTokenAmount()
  const { state } = useLocation()
  const [title, setTitle] = useState(() => prefillOf(state).title)
  const [body, setBody] = useState(() => prefillOf(state).body)
  const [kind, setKind] = useState<ProposalKind>('basic')
  const [choices, setChoices] = useState('')
  const [days, setDays] = useState('3')
  const [category, setCategory] = useState('')
  const [actions, setActions] = useState<ActionEntry[]>([])
  const [changesSafeSettings, setChangesSafeSettings] = useState(false)
  const { proposalCategories, governance } = usePublicConfig()
  // Quadratic voting is the operator's choice (it is not sybil-resistant): offered only when enabled.
  const kinds = PROPOSAL_KINDS.filter((option) => option !== 'quadratic' || governance.quadraticVoting)
  const treasury = useTreasurySummary()
  const safe = treasury.data?.safe?.address
  // What stops the proposal before the wallet is asked; the signing's own failure is the action's status.
  const [problem, setProblem] = useState<string>()
  const { status } = createProposal
  // With sign-in on, writing needs a session: the page asks for it before the form, not once it is filled in.
  const gate = useSessionGate()

  if (!dao.token || !dao.domain) return <p className="muted">This DAO has no governance token configured.</p>

  async function onSubmit(event: FormEvent) {
    event.preventDefault()
    if (!dao.address || !dao.domain || !client) return
    setProblem(undefined)
    createProposal.reset()
    // Only a basic proposal carries actions: its result says whether to make them.
    const signedActions = kind === 'basic' ? actions.map((entry) => entry.action) : []
    const refused = safe ? actionFindings(signedActions, safe, changesSafeSettings) : []
    const refusal = refused.find((finding) => finding.severity === 'problem')
    if (refusal) {
      setProblem(refusal.message)
      return
    }
    const now = Math.floor(Date.now() / 1000)
    let snapshot: number
    try {
      snapshot = Number(await getBlockNumber(client, { cacheTime: 0 })) - 1
    } catch {
      setProblem('The chain could not be reached to fix the snapshot block. Try again shortly.')
      return
    }
    const candidate = {
      author: dao.address,
      title: title.trim(),
      body,
      kind,
      choices:
        kind === 'basic'
          ? [...BASIC_CHOICES]
          : choices
              .split('\n')
              .map((line) => line.trim())
              .filter(Boolean),
      start: now,
      end: now + Math.round(Number(days) * DAY),
      snapshot,
      quorum: dao.rules.quorum,
      threshold: dao.rules.threshold,
      abstainCountsToQuorum: dao.rules.abstainCountsToQuorum,
      timestamp: now,
      version: 2,
      category,
      changesSafeSettings: signedActions.length > 0 && changesSafeSettings,
      actions: signedActions,
    }
    const parsed = proposalMessageSchema.safeParse(candidate)
    if (!parsed.success) {
      setProblem(formatIssues(parsed.error).replaceAll('- ', ''))
      return
    }
    const message: ProposalMessage = parsed.data
    const created = await createProposal.run(message)
    if (created) navigate(`/proposals/${created.id}`)
  }
  const error = problem ?? (status.step === 'failed' ? status.error : undefined)

  return (
    <article className="page">
      <p>
        <Link to="/proposals">← Proposals</Link>
      </p>
      <h1>New proposal</h1>
      <Card title="Proposal">
        {!dao.isConnected ? (
          <p className="muted">Connect a wallet to write a proposal.</p>
        ) : gate !== 'open' ? (
          <SessionGateNotice gate={gate} purpose="write a proposal" />
        ) : (
          <form className="form" onSubmit={onSubmit}>
            <label>
              Title
              <input
                value={title}
                onChange={(e) => setTitle(e.target.value)}
                maxLength={GOVERNANCE_LIMITS.titleMax}
                required
              />
            </label>
            <label>
              Description{' '}
              <span className="hint muted">
                (markdown, up to {GOVERNANCE_LIMITS.bodyMax.toLocaleString('en-US')} characters)
              </span>
              <textarea
                value={body}
                onChange={(e) => setBody(e.target.value)}
                maxLength={GOVERNANCE_LIMITS.bodyMax}
                rows={8}
              />
            </label>
            <label>
              Voting
              <select
                value={kind}
                onChange={(e) => setKind(e.target.value as ProposalKind)}
                aria-describedby="kind-help"
              >
                {kinds.map((option) => (
                  <option key={option} value={option}>
                    {PROPOSAL_KIND_LABELS[option]}
                  </option>
                ))}
              </select>
            </label>
            {/* Beside the label, not in it: the select's name stays "Voting", the help its description. */}
            <p id="kind-help" className="hint muted" data-testid="kind-help">
              {PROPOSAL_KIND_HELP[kind]}
            </p>
            {kind === 'quadratic' ? (
              <p className="notice" role="note" data-testid="quadratic-warning">
                {QUADRATIC_WARNING}
              </p>
            ) : null}
            {kind !== 'basic' ? (
              <label>
                Choices{' '}
                <span className="hint muted">
                  (one per line, {GOVERNANCE_LIMITS.choicesMin} to {GOVERNANCE_LIMITS.choicesMax}, each up to{' '}
                  {GOVERNANCE_LIMITS.choiceMax} characters)
                </span>
                <textarea value={choices} onChange={(e) => setChoices(e.target.value)} rows={4} required />
              </label>
            ) : null}
            {proposalCategories.length > 0 ? (
              <label>
                Category
                <select name="category" value={category} onChange={(e) => setCategory(e.target.value)}>
                  <option value="">None</option>
                  {proposalCategories.map((option) => (
                    <option key={option} value={option}>
                      {option}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            {kind === 'basic' ? (
              <TreasuryActions
                treasury={treasury}
                safe={safe}
                entries={actions}
                onChange={setActions}
                changesSafeSettings={changesSafeSettings}
                onChangesSafeSettings={setChangesSafeSettings}
              />
            ) : actions.length > 0 ? (
              <p className="muted">
                Only a For / Against / Abstain proposal carries actions: they are left out.
              </p>
            ) : null}
            <label>
              Voting period in days
              <input
                type="number"
                min="0.05"
                max="90"
                step="any"
                value={days}
                onChange={(e) => setDays(e.target.value)}
              />
            </label>
            <p className="muted" data-testid="proposal-rules">
              Voting opens now. Rules: quorum {amount(dao.rules.quorum)}, proposal threshold{' '}
              {amount(dao.rules.threshold)}; abstain{' '}
              {dao.rules.abstainCountsToQuorum ? 'counts' : 'does not count'} toward the quorum.
            </p>
            {dao.wrongChain ? (
              <SwitchChainButton purpose="to sign" primary />
            ) : (
              <button type="submit" className="button primary" disabled={createProposal.busy}>
                {status.step === 'signing'
                  ? 'Sign in your wallet…'
                  : status.step === 'submitting'
                    ? 'Submitting…'
                    : 'Sign and submit'}
              </button>
            )}
            {error ? (
              <p role="alert" className="error" style={{ whiteSpace: 'pre-line' }}>
                {error}
              </p>
            ) : null}
          </form>
        )}
      </Card>
    </article>
  )
}

/**
 * The form's actions, where the DAO has a treasury Safe: its tokens are the transfer editor's, its address
 * the one the guards compare calls with. "Could not load Safe information" (the spec's words) and a retry when
 * the server cannot read it.
 */
function TreasuryActions({
  treasury,
  safe,
  ...builder
}: {
  treasury: ReturnType<typeof useTreasurySummary>
  safe: Address | undefined
  entries: ActionEntry[]
  onChange: (entries: ActionEntry[]) => void
  changesSafeSettings: boolean
  onChangesSafeSettings: (value: boolean) => void
}) {
  if (treasury.error) {
    return (
      <div role="alert" className="error" data-testid="actions-field">
        <p>Could not load Safe information. {describeRequestError(treasury.error)}</p>
        <button type="button" className="button" onClick={() => void treasury.refetch()}>
          Retry
        </button>
      </div>
    )
  }
  if (!treasury.data) return <p className="muted">Reading the treasury…</p>
  if (!safe) {
    return (
      <p className="muted" data-testid="actions-field">
        This DAO has no treasury Safe configured: its proposals carry no actions.
      </p>
    )
  }
  const tokens = treasury.data.assets.flatMap((asset) =>
    asset.token ? [{ address: asset.token, symbol: asset.symbol, decimals: asset.decimals }] : [],
  )
  return <ActionBuilder safe={safe} tokens={tokens} {...builder} />
}
