import { type ModerationActionListItem, relativeTime } from '@guildhall/core'
import { Link } from 'react-router'
import { MorePages } from '../../components/more-pages.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName } from '../../lib/names.tsx'
import { useModerationLog } from './queries/moderation-log.ts'
import './moderation.css'

/** What each kind of action is called in the log. */
const ACTION_WORDS: Record<ModerationActionListItem['kind'], string> = {
  hide: 'hid a comment',
  unhide: 'showed a comment again',
  lock: 'locked a thread',
  unlock: 'unlocked a thread',
  'auto-hide': 'Hidden by flags',
  takedown: 'Removed by the operator',
}

/**
 * The public moderation log (ADR 054): every action a moderator signed, every hide by members' flags and every
 * operator's takedown, newest first, each with its reason and a link to the comment or thread.
 */
export function ModerationPage() {
  const log = useModerationLog()
  const rows = log.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <article className="page moderation-page">
      <header className="page-header">
        <h1>Moderation</h1>
      </header>
      <p className="muted">
        Every moderation action, in public. A hidden comment stays in the thread, collapsed, and in its signed
        record; only the operator's legal takedown removes a text, and the log says so.
      </p>
      {log.error && rows.length === 0 ? (
        <p role="alert">The moderation log could not be loaded. {describeRequestError(log.error)}</p>
      ) : log.isPending ? (
        <p className="muted">Loading the moderation log…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No moderation actions yet.</p>
      ) : (
        <ol className="moderation-list" aria-label="Moderation actions" data-testid="moderation-list">
          {rows.map((action) => (
            <ModerationRow key={action.logSeq} action={action} />
          ))}
        </ol>
      )}
      <MorePages list={log} what="actions" />
    </article>
  )
}

/** Whether an action touched one comment (hides, unhides, a comment's takedown) rather than a thread or topic. */
const onComment = (action: ModerationActionListItem) =>
  action.kind !== 'lock' && action.kind !== 'unlock' && action.target !== action.thread

/** The page of the thread an action touched, at its comment when it touched one. */
function targetLink(action: ModerationActionListItem): string {
  const page =
    action.threadKind === 'proposal' ? `/proposals/${action.thread}` : `/discussions/${action.thread}`
  return onComment(action) ? `${page}#comment-${action.target}` : `${page}#discussion`
}

function ModerationRow({ action }: { action: ModerationActionListItem }) {
  const now = Math.floor(Date.now() / 1000)
  const what = onComment(action)
    ? 'A comment'
    : action.threadKind === 'topic' && action.target === action.thread
      ? 'The topic'
      : 'The thread'
  return (
    <li className="moderation-row" data-testid="moderation-action">
      <p className="moderation-what">
        {action.moderator !== null ? (
          <>
            <MemberName address={action.moderator} /> {ACTION_WORDS[action.kind]}
          </>
        ) : (
          <strong>{ACTION_WORDS[action.kind]}</strong>
        )}
      </p>
      <p className="moderation-where">
        <Link to={targetLink(action)}>
          {what} in “{action.threadTitle}”
        </Link>
      </p>
      <p className="moderation-reason">
        <span className="muted">Reason: </span>
        {action.reason}
      </p>
      <p className="muted moderation-when">
        <time dateTime={new Date(action.at * 1000).toISOString()}>{relativeTime(action.at, now)}</time>
        {' · '}log entry {action.logSeq}
      </p>
    </li>
  )
}
