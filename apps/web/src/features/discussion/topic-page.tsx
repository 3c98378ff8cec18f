import { relativeTime, type TopicJson } from '@guildhall/core'
import { Link, useParams } from 'react-router'
import type { Hex } from 'viem'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName } from '../../lib/names.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import './discussion.css'
import { useSessionGate } from '../auth/session-gate.tsx'
import { KeySignedStatusLine } from './composer.tsx'
import { DiscussionText } from './markdown-text.tsx'
import { useReact } from './queries/comment-actions.ts'
import { useThread } from './queries/thread.ts'
import { useTopic } from './queries/topics.ts'
import { Reactions } from './reactions.tsx'
import { Thread } from './thread.tsx'

/** The text a proposal written from a topic starts with: the topic's, and where it was discussed. */
export function proposalFromTopic(topic: { id: string; title: string; body: string | null }, origin: string) {
  const link = `Discussed at ${origin.replace(/\/$/, '')}/discussions/${topic.id}`
  const body = topic.body?.trim() ?? ''
  return { title: topic.title, body: body === '' ? link : `${body}\n\n${link}` }
}

/** /discussions/:id: a topic, the proposal it became (or the way to propose it), and its thread. */
export function TopicPage() {
  const { id = '' } = useParams()
  const config = usePublicConfig()
  const topic = useTopic(id)
  if (topic.error)
    return <p role="alert">This topic could not be loaded. {describeRequestError(topic.error)}</p>
  if (!topic.data) return <p className="muted">Loading the topic…</p>
  const data = topic.data
  const now = Math.floor(Date.now() / 1000)
  return (
    <article className="page topic-page">
      <p>
        <Link to="/discussions">← Discussions</Link>
      </p>
      <header className="page-header">
        <span className="state">{data.category}</span>
        <h1>{data.title}</h1>
        <p className="muted">
          By <MemberName address={data.author} /> · {relativeTime(data.createdAt, now)}
        </p>
      </header>
      <section className="card" data-testid="topic-body">
        {data.body === null ? (
          <p className="comment-gone">Removed by the operator.</p>
        ) : data.body.trim() !== '' ? (
          <DiscussionText body={data.body} mentions={data.mentions} />
        ) : (
          <p className="muted">No text.</p>
        )}
        <TopicReactions topic={data} />
        {data.proposal ? (
          <p>
            Became proposal <Link to={`/proposals/${data.proposal.id}`}>{data.proposal.title}</Link>
          </p>
        ) : (
          <p>
            <Link
              className="button"
              to="/proposals/new"
              state={{ prefill: proposalFromTopic(data, config.appUrl) }}
            >
              Propose from this topic
            </Link>
          </p>
        )}
      </section>
      <Thread threadId={data.id as Hex} />
    </article>
  )
}

/** The topic's own reactions, pressed as a comment's are. */
function TopicReactions({ topic }: { topic: TopicJson }) {
  const thread = useThread(topic.id)
  const react = useReact(topic.id)
  const gate = useSessionGate()
  const mayReact = gate === 'open' && thread.data?.mayPost === true && thread.data.locked === null
  return (
    <>
      <Reactions
        reactions={topic.reactions}
        disabled={!mayReact || react.busy}
        onToggle={(reaction, on) =>
          void react.run((author) => ({
            author,
            target: topic.id,
            reaction,
            on,
            timestamp: Math.floor(Date.now() / 1000),
          }))
        }
      />
      <KeySignedStatusLine status={react.status.step === 'failed' ? react.status : { step: 'idle' }} />
    </>
  )
}
