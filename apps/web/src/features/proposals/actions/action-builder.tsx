// The new proposal form's "Actions": what the DAO's Safe is to do if the proposal passes. Actions are added
// one at a time by an editor (token transfer, ETH transfer, contract call), shown decoded with the guards'
// findings, and the whole batch is simulated against the Safe before the author signs.
import {
  actionProblems,
  actionWarnings,
  GOVERNANCE_LIMITS,
  type KnownToken,
  type ProposalAction,
  proposalActionSchema,
} from '@guildhall/core'
import { useState } from 'react'
import type { Address } from 'viem'
import { useSimulation } from '../queries/simulate.ts'
import { ContractCallEditor, EthTransferEditor, TokenTransferEditor } from './action-editors.tsx'
import { type ActionEntry, ActionList } from './action-list.tsx'
import { SimulationResult } from './simulation.tsx'

const EDITORS = {
  token: 'Add a token transfer',
  eth: 'Add an ETH transfer',
  call: 'Add a contract call',
} as const
type EditorKind = keyof typeof EDITORS

/** The checks of core (actionWarnings, actionProblems) on the form's actions, for display. */
export function actionFindings(
  actions: readonly ProposalAction[],
  safe: Address,
  changesSafeSettings: boolean,
) {
  const context = { safe, changesSafeSettings }
  return [
    ...actionProblems(actions, context).map((finding) => ({ ...finding, severity: 'problem' as const })),
    ...actionWarnings(actions, context).map((finding) => ({ ...finding, severity: 'warning' as const })),
  ]
}

export function ActionBuilder({
  entries,
  onChange,
  changesSafeSettings,
  onChangesSafeSettings,
  safe,
  tokens,
}: {
  entries: readonly ActionEntry[]
  onChange: (entries: ActionEntry[]) => void
  changesSafeSettings: boolean
  onChangesSafeSettings: (value: boolean) => void
  safe: Address
  tokens: readonly KnownToken[]
}) {
  const [editor, setEditor] = useState<EditorKind>()
  const actions = entries.map((entry) => entry.action)
  const findings = actionFindings(actions, safe, changesSafeSettings)
  const problems = findings.filter((finding) => finding.severity === 'problem')
  // A batch the API would refuse is not simulated: its problems are what the author must fix first.
  const simulation = useSimulation(
    actions.length > 0 && problems.length === 0 ? { actions, changesSafeSettings } : undefined,
  )
  const full = entries.length >= GOVERNANCE_LIMITS.actionsMax
  /** Adds an action the signed proposal can carry (core's schema: the zero address, the data's size). */
  const add = (action: ProposalAction, entry: Omit<ActionEntry, 'action'> = {}) => {
    const checked = proposalActionSchema.safeParse(action)
    if (!checked.success) return checked.error.issues.map((issue) => issue.message).join('; ')
    onChange([...entries, { action: checked.data, ...entry }])
    setEditor(undefined)
    return undefined
  }

  return (
    <fieldset className="actions-field" data-testid="actions-field">
      <legend>Actions</legend>
      <p className="hint muted" data-testid="actions-limits">
        What the DAO’s Safe does if the proposal passes, in this order, all or nothing: up to{' '}
        {GOVERNANCE_LIMITS.actionsMax} actions, each call’s data up to{' '}
        {GOVERNANCE_LIMITS.actionDataMaxBytes.toLocaleString('en-US')} bytes. Signers of the Safe carry them
        out; this page shows whether they did.
      </p>
      {entries.length > 0 ? (
        <ActionList
          entries={entries}
          knownTokens={tokens}
          safe={safe}
          findings={findings}
          onRemove={(index) => onChange(entries.filter((_, at) => at !== index))}
        />
      ) : (
        <p className="muted">No actions: the vote decides, and nothing is paid or called.</p>
      )}
      {findings
        .filter((finding) => finding.index === null)
        .map((finding) => (
          <p key={finding.message} role="alert" className="error">
            {finding.message}
          </p>
        ))}
      {editor === 'token' ? (
        <TokenTransferEditor tokens={tokens} onAdd={add} onCancel={() => setEditor(undefined)} />
      ) : editor === 'eth' ? (
        <EthTransferEditor onAdd={add} onCancel={() => setEditor(undefined)} />
      ) : editor === 'call' ? (
        <ContractCallEditor onAdd={add} onCancel={() => setEditor(undefined)} />
      ) : full ? (
        <p className="muted">A proposal carries at most {GOVERNANCE_LIMITS.actionsMax} actions.</p>
      ) : (
        <div className="row">
          {(Object.keys(EDITORS) as EditorKind[]).map((kind) => (
            <button key={kind} type="button" className="button" onClick={() => setEditor(kind)}>
              {EDITORS[kind]}
            </button>
          ))}
        </div>
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          checked={changesSafeSettings}
          onChange={(event) => onChangesSafeSettings(event.target.checked)}
        />
        This proposal changes the Safe’s settings
      </label>
      {changesSafeSettings ? (
        <p className="warning" data-testid="safe-settings-warning">
          A change of the Safe’s settings can replace its owners, lower how many must sign, or let something
          else move the treasury’s funds. Voters see this mark on the proposal.
        </p>
      ) : null}
      {actions.length > 0 && problems.length === 0 ? (
        <SimulationResult
          simulation={simulation.data}
          error={simulation.error}
          pending={simulation.isFetching}
          stale={simulation.isPlaceholderData}
          knownTokens={tokens}
        />
      ) : null}
    </fieldset>
  )
}
