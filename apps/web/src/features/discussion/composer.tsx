import { DISCUSSION_LIMITS } from '@guildhall/core'
import { type FormEvent, useId, useState } from 'react'
import { type Hex, zeroHash } from 'viem'
import { KEY_PROMPT, type KeySignedStatus, useHasKey } from './discussion-key.ts'
import { resolveMentions } from './mentions.ts'
import { usePostComment } from './queries/comment-actions.ts'

const count = new Intl.NumberFormat('en-US')

/** The limits every comment form states. */
export const COMMENT_LIMITS = `Up to ${count.format(DISCUSSION_LIMITS.bodyMaxChars)} characters · replies nest ${DISCUSSION_LIMITS.depthMax} deep`

/** A key-signed action's step in words: the wallet's one question first, then the sending. */
export function KeySignedStatusLine({ status, done }: { status: KeySignedStatus; done?: string }) {
  if (status.step === 'idle' || status.step === 'not-authorised' || (status.step === 'done' && !done))
    return null
  if (status.step === 'failed')
    return (
      <p role="alert" className="error">
        {status.error}
      </p>
    )
  return (
    <p role="status" className="muted">
      {status.step === 'authorising'
        ? `Confirm in your wallet: ${KEY_PROMPT}`
        : status.step === 'submitting'
          ? 'Signing and sending…'
          : done}
    </p>
  )
}

/** What the first key-signed action will ask the wallet, said before it opens. */
export function KeyNotice() {
  const hasKey = useHasKey()
  if (hasKey) return null
  return <p className="muted key-notice">Your wallet will ask once: {KEY_PROMPT}</p>
}

/**
 * A comment's form: a new comment, a reply (`parent`) or an edit (`replaces`, the latest version's id,
 * with its text to start from). Mentions are resolved to addresses as it is signed.
 */
export function Composer({
  threadId,
  parent,
  replaces,
  initial = '',
  label,
  submitLabel,
  onDone,
  onCancel,
}: {
  threadId: Hex
  parent?: Hex
  replaces?: Hex
  initial?: string
  label: string
  submitLabel: string
  onDone?: () => void
  onCancel?: () => void
}) {
  const id = useId()
  const [body, setBody] = useState(initial)
  const post = usePostComment(threadId)
  const tooLong = body.length > DISCUSSION_LIMITS.bodyMaxChars
  const empty = body.trim() === ''

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (empty || tooLong || post.busy) return
    const text = body
    const answer = await post.run(async (author) => ({
      author,
      thread: threadId,
      parent: parent ?? zeroHash,
      replaces: replaces ?? zeroHash,
      body: text,
      mentions: await resolveMentions(text),
      timestamp: Math.floor(Date.now() / 1000),
    }))
    if (answer) {
      setBody('')
      onDone?.()
    }
  }

  return (
    <form className="form composer" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        value={body}
        rows={4}
        onChange={(event) => {
          setBody(event.target.value)
          if (post.status.step === 'failed' || post.status.step === 'done') post.reset()
        }}
        aria-describedby={`${id}-limits`}
        aria-invalid={tooLong || undefined}
      />
      <p id={`${id}-limits`} className="muted composer-limits">
        {COMMENT_LIMITS} · markdown; mention a member as @name.eth or @0x…
        {body.length > 0 ? ` · ${count.format(body.length)} characters` : ''}
      </p>
      {tooLong ? (
        <p role="alert" className="error">
          A comment has at most {count.format(DISCUSSION_LIMITS.bodyMaxChars)} characters.
        </p>
      ) : null}
      <KeyNotice />
      <div className="composer-actions">
        <button type="submit" className="button primary" disabled={empty || tooLong || post.busy}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <KeySignedStatusLine status={post.status} />
    </form>
  )
}
