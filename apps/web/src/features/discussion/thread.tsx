import type { ThreadItem, ThreadJson } from '@guildhall/core'
import { useEffect, useRef, useState } from 'react'
import { Link, useLocation } from 'react-router'
import type { Hex } from 'viem'
import { MorePages } from '../../components/more-pages.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { MemberName } from '../../lib/names.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { CommentItem, ReasonForm, type Viewer } from './comment-item.tsx'
import { Composer, KeySignedStatusLine } from './composer.tsx'
import './discussion.css'
import { useModerate } from './queries/comment-actions.ts'
import { useLiveThread } from './queries/live.ts'
import { useMarkSeen, useThread, useThreadItems } from './queries/thread.ts'
import { VerifyThread } from './verify-thread.tsx'
import { VoteCard } from './vote-card.tsx'

const nowSeconds = () => Math.floor(Date.now() / 1000)

/**
 * A thread (a proposal's or a topic's): its comments and vote cards in tree order, replies indented to the
 * depth limit, a page at a time, current from its live stream; the composer for a member who may post.
 */
export function Thread({ threadId }: { threadId: Hex }) {
  useLiveThread(threadId)
  const thread = useThread(threadId)
  const items = useThreadItems(threadId)
  const gate = useSessionGate()
  const { address } = useDaoChain()
  const config = usePublicConfig()
  const { moderators } = config.discussion
  const signedIn = gate === 'open' && address !== undefined
  const viewer: Viewer = {
    member: signedIn ? address : undefined,
    mayPost: signedIn && thread.data?.mayPost === true && thread.data.locked === null,
    moderator: signedIn && moderators.some((m) => m.toLowerCase() === address.toLowerCase()),
  }
  // "New since your last visit" is measured against the visit before this one: kept from the first answer,
  // so the marks stay while this visit is recorded and the thread reads again.
  const [lastSeen, setLastSeen] = useState<number | null | undefined>(undefined)
  useEffect(() => {
    if (thread.data && lastSeen === undefined) setLastSeen(thread.data.lastSeenSeq)
  }, [thread.data, lastSeen])
  const shown = items.data?.pages.flatMap((page) => page.items) ?? []
  useMarkVisit(threadId, signedIn, shown)
  useScrollToAnchor(shown.length)
  const now = nowSeconds()

  return (
    <section className="card thread" id="discussion" aria-labelledby="discussion-heading">
      <header className="thread-header">
        <h2 id="discussion-heading">Discussion{thread.data ? ` (${thread.data.commentCount})` : ''}</h2>
        <VerifyThread threadId={threadId} />
      </header>
      {/* A proposal's thread names the topic it grew from; a topic's own thread is that topic. */}
      {thread.data?.kind === 'proposal' && thread.data.topic ? (
        <p className="muted">
          Discussed first in the topic{' '}
          <Link to={`/discussions/${thread.data.topic.id}`}>{thread.data.topic.title}</Link>.
        </p>
      ) : null}
      {thread.data ? <ThreadState thread={thread.data} viewer={viewer} /> : null}
      {thread.isError ? (
        <p role="alert">This discussion could not be loaded. {describeRequestError(thread.error)}</p>
      ) : null}
      {!config.signIn ? (
        <p className="muted">Sign-in is turned off on this server, so comments cannot be written here.</p>
      ) : gate !== 'open' || !address ? (
        // Not connected is signed out too: "Sign in" opens the connect dialog, which then asks to sign in.
        <SessionGateNotice gate={gate === 'open' ? 'sign-in' : gate} purpose="comment" />
      ) : thread.data && viewer.mayPost ? (
        <Composer threadId={threadId} label="Add a comment" submitLabel="Comment" />
      ) : null}
      {items.error && shown.length === 0 ? (
        <p role="alert">The comments could not be loaded. {describeRequestError(items.error)}</p>
      ) : items.isPending ? (
        <p className="muted">Loading the discussion…</p>
      ) : shown.length === 0 ? (
        <p className="muted">No comments yet.</p>
      ) : (
        <ol className="thread-items" aria-label="Comments">
          {shown.map((item) => (
            <li key={itemKey(item)} className={`thread-item depth-${itemDepth(item)}`}>
              {item.type === 'comment' ? (
                <CommentItem
                  comment={item.comment}
                  viewer={viewer}
                  isNew={
                    lastSeen !== undefined &&
                    lastSeen !== null &&
                    item.comment.logSeq > lastSeen &&
                    item.comment.author.toLowerCase() !== viewer.member?.toLowerCase()
                  }
                  now={now}
                />
              ) : (
                <VoteCard vote={item.vote} now={now} />
              )}
            </li>
          ))}
        </ol>
      )}
      <MorePages list={items} what="comments" />
    </section>
  )
}

const itemKey = (item: ThreadItem) => (item.type === 'comment' ? item.comment.id : item.vote.voteId)
const itemDepth = (item: ThreadItem) => (item.type === 'comment' ? item.comment.depth : 0)

/**
 * A link to the thread (`#discussion`) or to one of its comments (`#comment-<id>`, the moderation log's)
 * lands there once it is shown: the section and its items render after the page, too late for the browser's
 * own jump. Once per visit, so reading on is never pulled back.
 */
function useScrollToAnchor(itemCount: number) {
  const { hash } = useLocation()
  const done = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new page of items may hold the target
  useEffect(() => {
    if (done.current || !(hash === '#discussion' || hash.startsWith('#comment-'))) return
    const target = document.getElementById(decodeURIComponent(hash.slice(1)))
    if (!target) return
    done.current = true
    target.scrollIntoView()
  }, [hash, itemCount])
}

/** The newest log entry shown, recorded as seen for a signed-in member (once per newer entry). */
function useMarkVisit(threadId: Hex, signedIn: boolean, shown: readonly ThreadItem[]) {
  const seen = useMarkSeen(threadId)
  const sent = useRef(-1)
  const newest = Math.max(
    -1,
    ...shown.map((item) => (item.type === 'comment' ? item.comment.logSeq : item.vote.logSeq)),
  )
  useEffect(() => {
    if (!signedIn || newest <= sent.current) return
    sent.current = newest
    seen.mutate(newest)
  }, [signedIn, newest, seen.mutate])
}

/** Locked (and by whom, why), why the member may not post, and a moderator's lock or unlock. */
function ThreadState({ thread, viewer }: { thread: ThreadJson; viewer: Viewer }) {
  const moderate = useModerate(thread.id as Hex)
  const [asking, setAsking] = useState(false)
  return (
    <>
      {thread.locked ? (
        <p className="notice thread-locked" role="note">
          Locked by <MemberName address={thread.locked.by} />: {thread.locked.reason}. No new comments,
          replies or reactions.
        </p>
      ) : null}
      {viewer.member && !thread.mayPost && thread.mayPostReason ? (
        <p className="muted">{thread.mayPostReason}</p>
      ) : null}
      {viewer.moderator && thread.locked ? (
        asking ? (
          <ReasonForm
            label="Why is the thread unlocked? (shown to everyone)"
            submitLabel="Unlock thread"
            busy={moderate.busy}
            onCancel={() => setAsking(false)}
            onSubmit={(reason) =>
              void moderate
                .run((moderator) => ({
                  moderator,
                  target: thread.id,
                  action: 'unlock' as const,
                  reason,
                  timestamp: nowSeconds(),
                }))
                .then((answer) => answer && setAsking(false))
            }
          />
        ) : (
          <button type="button" className="button" onClick={() => setAsking(true)}>
            Unlock thread
          </button>
        )
      ) : null}
      <KeySignedStatusLine status={moderate.status} />
    </>
  )
}
