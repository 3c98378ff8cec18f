import { type CommentJson, DISCUSSION_LIMITS, relativeTime } from '@guildhall/core'
import { type FormEvent, useId, useState } from 'react'
import type { Hex } from 'viem'
import { MemberName } from '../../lib/names.tsx'
import { Composer, KeySignedStatusLine } from './composer.tsx'
import { DiscussionText } from './markdown-text.tsx'
import { useFlagComment, useModerate, useReact, useWithdrawComment } from './queries/comment-actions.ts'
import { useCommentVersions } from './queries/thread.ts'
import { Reactions } from './reactions.tsx'

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })
const exact = (seconds: number) => dateTime.format(new Date(seconds * 1000))
const nowSeconds = () => Math.floor(Date.now() / 1000)

/** What the member looking at a comment may do with it. */
export type Viewer = {
  /** The connected, signed-in member, or undefined. */
  member: string | undefined
  /** May write in this thread (signed in, the posting policy allows, not locked). */
  mayPost: boolean
  /** Listed in the public config's moderators. */
  moderator: boolean
}

/** One comment in its thread: who and when, its text in whichever state it is, reactions, and what to do. */
export function CommentItem({
  comment,
  viewer,
  isNew,
  now,
}: {
  comment: CommentJson
  viewer: Viewer
  /** Arrived since the member's last visit. */
  isNew: boolean
  now: number
}) {
  const threadId = comment.thread as Hex
  const mine = viewer.member !== undefined && viewer.member.toLowerCase() === comment.author.toLowerCase()
  const [mode, setMode] = useState<'read' | 'reply' | 'edit'>('read')
  const [showVersions, setShowVersions] = useState(false)
  const react = useReact(threadId)
  const withdraw = useWithdrawComment(threadId)
  const gone = comment.withdrawn || comment.takenDown !== null
  const canReply = viewer.mayPost && comment.depth < DISCUSSION_LIMITS.depthMax && !gone

  return (
    // The id is the anchor the moderation log links to (/discussions/<thread>#comment-<id>).
    <article
      className="comment"
      id={`comment-${comment.id}`}
      data-testid="comment"
      aria-label={`Comment by ${comment.author}`}
    >
      <header className="comment-header">
        <strong>
          <MemberName address={comment.author} />
        </strong>
        <span className="muted" title={exact(comment.createdAt)}>
          {relativeTime(comment.createdAt, now)}
        </span>
        {comment.versions > 1 ? (
          <button
            type="button"
            className="link-button"
            aria-expanded={showVersions}
            onClick={() => setShowVersions(!showVersions)}
          >
            edited
          </button>
        ) : null}
        {isNew ? <span className="new-mark">New</span> : null}
      </header>
      <CommentBody comment={comment} />
      {showVersions ? <Versions commentId={comment.id} /> : null}
      {!gone ? (
        <Reactions
          reactions={comment.reactions}
          disabled={!viewer.mayPost || react.busy}
          onToggle={(reaction, on) =>
            void react.run((author) => ({
              author,
              target: comment.id,
              reaction,
              on,
              timestamp: nowSeconds(),
            }))
          }
        />
      ) : null}
      <KeySignedStatusLine status={react.status.step === 'failed' ? react.status : { step: 'idle' }} />
      {mode === 'read' ? (
        <div className="comment-actions">
          {canReply ? (
            <button type="button" className="link-button" onClick={() => setMode('reply')}>
              Reply
            </button>
          ) : null}
          {mine && !gone && viewer.mayPost ? (
            <>
              <button type="button" className="link-button" onClick={() => setMode('edit')}>
                Edit
              </button>
              <button
                type="button"
                className="link-button"
                disabled={withdraw.busy}
                onClick={() =>
                  void withdraw.run((author) => ({ author, comment: comment.id, timestamp: nowSeconds() }))
                }
              >
                Withdraw
              </button>
            </>
          ) : null}
          {viewer.member !== undefined && !gone ? (
            <CommentMenu comment={comment} viewer={viewer} mine={mine} />
          ) : null}
        </div>
      ) : mode === 'reply' ? (
        <Composer
          threadId={threadId}
          parent={comment.id as Hex}
          label="Your reply"
          submitLabel="Reply"
          onDone={() => setMode('read')}
          onCancel={() => setMode('read')}
        />
      ) : (
        <Composer
          threadId={threadId}
          replaces={comment.versionId as Hex}
          initial={comment.body ?? ''}
          label="Edit your comment"
          submitLabel="Save the new version"
          onDone={() => setMode('read')}
          onCancel={() => setMode('read')}
        />
      )}
      <KeySignedStatusLine status={withdraw.status} />
    </article>
  )
}

/** The text, or why it is not shown: taken down, withdrawn, hidden (collapsed, one press away). */
function CommentBody({ comment }: { comment: CommentJson }) {
  const [shown, setShown] = useState(false)
  if (comment.takenDown)
    return <p className="comment-gone">Removed by the operator: {comment.takenDown.reason}</p>
  if (comment.withdrawn || comment.body === null)
    return <p className="comment-gone">Withdrawn by the author</p>
  const text = <DiscussionText body={comment.body} mentions={comment.mentions} />
  if (!comment.hidden) return text
  return (
    <>
      <p className="comment-gone">
        {comment.hidden.by ? (
          <>
            Hidden by <MemberName address={comment.hidden.by} />
          </>
        ) : (
          'Hidden after flags from members'
        )}
        : {comment.hidden.reason} ·{' '}
        <button type="button" className="link-button" aria-expanded={shown} onClick={() => setShown(!shown)}>
          {shown ? 'hide' : 'show'}
        </button>
      </p>
      {shown ? <div className="comment-hidden-text">{text}</div> : null}
    </>
  )
}

/** Every version of an edited comment, first to latest, each as it was signed. */
function Versions({ commentId }: { commentId: string }) {
  const versions = useCommentVersions(commentId, true)
  if (versions.isPending) return <p className="muted">Loading the versions…</p>
  if (versions.isError) return <p role="alert">The versions could not be loaded.</p>
  return (
    <ol className="comment-versions" aria-label="Versions">
      {versions.data.items.map((version, index) => (
        <li key={version.versionId}>
          <p className="muted">
            Version {index + 1} · {exact(version.timestamp)}
          </p>
          {version.body === null ? (
            <p className="comment-gone">Removed by the operator</p>
          ) : (
            <DiscussionText body={version.body} mentions={version.mentions} />
          )}
        </li>
      ))}
    </ol>
  )
}

type MenuAction = 'flag' | 'hide' | 'unhide' | 'lock'

const ACTION_WORDS: Record<MenuAction, { button: string; reason: string }> = {
  flag: { button: 'Flag', reason: 'Why should the moderators look at it?' },
  hide: { button: 'Hide', reason: 'Why is it hidden? (shown to everyone)' },
  unhide: { button: 'Unhide', reason: 'Why is it shown again? (shown to everyone)' },
  lock: { button: 'Lock thread', reason: 'Why is the thread locked? (shown to everyone)' },
}

/** Flag (members), hide or unhide and lock the thread (moderators): each asks a reason, signed with the key. */
function CommentMenu({ comment, viewer, mine }: { comment: CommentJson; viewer: Viewer; mine: boolean }) {
  const threadId = comment.thread as Hex
  const [action, setAction] = useState<MenuAction>()
  const flag = useFlagComment(threadId)
  const moderate = useModerate(threadId)
  const actions: MenuAction[] = [
    ...(!mine ? (['flag'] as const) : []),
    ...(viewer.moderator ? ([comment.hidden ? 'unhide' : 'hide', 'lock'] as const) : []),
  ]
  if (actions.length === 0) return null
  const status = action === 'flag' ? flag.status : moderate.status

  async function send(reason: string) {
    if (!action) return
    const timestamp = nowSeconds()
    const answer =
      action === 'flag'
        ? await flag.run((author) => ({ author, comment: comment.id, reason, timestamp }))
        : await moderate.run((moderator) => ({
            moderator,
            target: action === 'lock' ? comment.thread : comment.id,
            action,
            reason,
            timestamp,
          }))
    if (answer) setAction(undefined)
  }

  return (
    <details className="comment-menu">
      <summary aria-label="More actions">⋯</summary>
      <div className="comment-menu-items">
        {actions.map((item) => (
          <button
            key={item}
            type="button"
            className="link-button"
            aria-pressed={action === item}
            onClick={() => setAction(item)}
          >
            {ACTION_WORDS[item].button}
          </button>
        ))}
      </div>
      {action ? (
        <ReasonForm
          label={ACTION_WORDS[action].reason}
          submitLabel={ACTION_WORDS[action].button}
          busy={flag.busy || moderate.busy}
          onSubmit={(reason) => void send(reason)}
          onCancel={() => setAction(undefined)}
        />
      ) : null}
      <KeySignedStatusLine status={status} />
    </details>
  )
}

/** A short reason (a flag's, a moderator's), within the limit every signed reason has. */
export function ReasonForm({
  label,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  label: string
  submitLabel: string
  busy: boolean
  onSubmit: (reason: string) => void
  onCancel: () => void
}) {
  const id = useId()
  const [reason, setReason] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (reason.trim() !== '') onSubmit(reason.trim())
  }
  return (
    <form className="form reason-form" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={reason}
        maxLength={DISCUSSION_LIMITS.reasonMaxChars}
        onChange={(event) => setReason(event.target.value)}
      />
      <div className="composer-actions">
        <button type="submit" className="button primary" disabled={busy || reason.trim() === ''}>
          {submitLabel}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
