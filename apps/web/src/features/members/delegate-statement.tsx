import { GOVERNANCE_LIMITS } from '@guildhall/core'
import { type FormEvent, useState } from 'react'
import type { Address } from 'viem'
import { useAccount } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { SignedActionStatusLine } from '../../components/signed-action-status.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { Preloaded } from '../../lib/preloadable.ts'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { useDelegateStatement, usePublishStatement } from './queries/delegate-statement.ts'
import { buildStatementMessage, statementSize } from './statement-message.ts'
import { DelegateStatementView, markdownRenderer } from './statement-view.tsx'
import './members.css'

const STATEMENT_WORDS = {
  signing: 'Sign your statement in your wallet…',
  submitting: 'Publishing your statement…',
  done: 'Your statement is published. Sign a new version to change it.',
}

/**
 * "Your delegate statement", on the connected member's own member page: they write, preview, sign and publish
 * theirs.
 */
export function DelegateStatementEditor() {
  const { address, isConnected } = useAccount()
  const gate = useSessionGate()
  if (!isConnected || !address) return null
  if (gate !== 'open') {
    return (
      <Card title="Your delegate statement" testId="statement-editor">
        <DelegateStatementView delegate={address} />
        <SessionGateNotice gate={gate} purpose="publish your delegate statement" />
      </Card>
    )
  }
  // The draft belongs to one account: another account starts from its own statement.
  return <AccountStatementEditor key={address.toLowerCase()} delegate={address} />
}

function AccountStatementEditor({ delegate }: { delegate: Address }) {
  const dao = useDaoChain()
  const current = useDelegateStatement(delegate)
  const publish = usePublishStatement()
  const [draft, setDraft] = useState<string>()
  const [editing, setEditing] = useState(false)
  const [preview, setPreview] = useState(false)

  const latest = current.data ?? undefined
  const text = draft ?? latest?.message.statement ?? ''
  const size = statementSize(text)
  const L = GOVERNANCE_LIMITS
  const disabledReason = current.isPending
    ? 'Reading your current statement…'
    : size.characters > L.statementMax
      ? `At most ${L.statementMax.toLocaleString('en-US')} characters.`
      : size.bytes > L.statementMaxBytes
        ? `At most ${L.statementMaxBytes.toLocaleString('en-US')} bytes: accented letters take 2, most other scripts 3, emoji 4.`
        : latest && text === latest.message.statement
          ? 'Edit your statement to publish a new version.'
          : null

  async function onPublish(event: FormEvent) {
    event.preventDefault()
    if (!dao.domain || disabledReason) return
    const published = await publish.run(
      buildStatementMessage({ delegate, statement: text, replaces: latest?.message, now: Date.now() }),
    )
    if (published) {
      setDraft(undefined)
      setEditing(false)
      setPreview(false)
    }
  }

  return (
    <Card title="Your delegate statement" testId="statement-editor">
      {current.error ? (
        <p role="alert">Your current statement could not be read. {describeRequestError(current.error)}</p>
      ) : null}
      {latest?.message.statement && !editing ? (
        <>
          <DelegateStatementView delegate={delegate} />
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Edit statement
          </button>
        </>
      ) : (
        <form className="statement-form" onSubmit={onPublish}>
          <div className="statement-tabs">
            <button
              type="button"
              className="button"
              aria-pressed={!preview}
              onClick={() => setPreview(false)}
            >
              Write
            </button>
            <button type="button" className="button" aria-pressed={preview} onClick={() => setPreview(true)}>
              Preview
            </button>
          </div>
          {preview ? (
            <div className="statement-preview" data-testid="statement-preview">
              {text ? (
                <Preloaded code={markdownRenderer} props={{ text }} />
              ) : (
                <p className="muted">Nothing to preview.</p>
              )}
            </div>
          ) : (
            <label>
              <span>
                Who you are and how you will vote <span className="muted">(markdown)</span>
              </span>
              <textarea
                value={text}
                onChange={(e) => setDraft(e.target.value)}
                maxLength={L.statementMax}
                rows={8}
                disabled={current.isPending}
              />
            </label>
          )}
          <p className="muted" data-testid="statement-size">
            {size.characters.toLocaleString('en-US')} / {L.statementMax.toLocaleString('en-US')} characters
            {size.bytes > size.characters ? ` · ${size.bytes.toLocaleString('en-US')} bytes` : ''}
          </p>
          {dao.wrongChain ? (
            <SwitchChainButton purpose="to sign your statement" primary />
          ) : (
            <div>
              <button
                type="submit"
                className="button primary"
                disabled={publish.busy || Boolean(disabledReason)}
                aria-describedby={disabledReason ? 'statement-disabled-reason' : undefined}
              >
                {latest ? 'Sign and publish new version' : 'Sign and publish'}
              </button>
              {disabledReason ? (
                <p id="statement-disabled-reason" className="muted">
                  {disabledReason}
                </p>
              ) : null}
            </div>
          )}
          {latest?.message.statement ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                setEditing(false)
                setDraft(undefined)
              }}
            >
              Cancel
            </button>
          ) : null}
        </form>
      )}
      <SignedActionStatusLine status={publish.status} words={STATEMENT_WORDS} />
    </Card>
  )
}
