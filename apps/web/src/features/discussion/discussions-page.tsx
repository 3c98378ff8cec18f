import { DISCUSSION_LIMITS, relativeTime, type TopicSummary } from '@guildhall/core'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Card } from '../../components/card.tsx'
import { MorePages } from '../../components/more-pages.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { MemberName } from '../../lib/names.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { KeyNotice, KeySignedStatusLine } from './composer.tsx'
import './discussion.css'
import { resolveMentions } from './mentions.ts'
import { useCreateTopic, useTopics } from './queries/topics.ts'

const count = new Intl.NumberFormat('en-US')

/** /discussions: topics (ideas before they are proposals), latest activity first, by category. */
/** What a visitor reads where the discussion would be, on a server with sign-in off. */
const DISCUSSION_OFF =
  'Discussion is off on this server: every comment is signed by a signed-in member, and the operator has turned sign-in off.'

export function DiscussionsPage() {
  const config = usePublicConfig()
  const { categories } = config.discussion
  const [category, setCategory] = useState<string>()
  const [writing, setWriting] = useState(false)
  const topics = useTopics(category)
  const shown = topics.data?.pages.flatMap((page) => page.items) ?? []
  const now = Math.floor(Date.now() / 1000)
  if (!config.signIn) {
    return (
      <article className="page discussions-page">
        <h1>Discussions</h1>
        <p>{DISCUSSION_OFF}</p>
      </article>
    )
  }
  return (
    <article className="page discussions-page">
      <header className="page-header with-action">
        <h1>Discussions</h1>
        {!writing ? (
          <button type="button" className="button primary" onClick={() => setWriting(true)}>
            New topic
          </button>
        ) : null}
      </header>
      <p className="lead">
        Ideas before they are proposals. Every topic, comment and reaction is signed by its author and kept in
        the governance log.
      </p>
      {writing ? <NewTopic categories={categories} onCancel={() => setWriting(false)} /> : null}
      <nav className="category-filter" aria-label="Categories">
        {[undefined, ...categories].map((name) => (
          <button
            key={name ?? ''}
            type="button"
            className="button"
            aria-pressed={category === name}
            onClick={() => setCategory(name)}
          >
            {name ?? 'All'}
          </button>
        ))}
      </nav>
      {topics.error && shown.length === 0 ? (
        <p role="alert">The topics could not be loaded. {describeRequestError(topics.error)}</p>
      ) : topics.isPending ? (
        <p className="muted">Loading topics…</p>
      ) : shown.length === 0 ? (
        <p className="muted">No topics {category ? `in ${category} ` : ''}yet.</p>
      ) : (
        <ul className="topic-list" aria-label="Topics">
          {shown.map((topic) => (
            <TopicRow key={topic.id} topic={topic} now={now} />
          ))}
        </ul>
      )}
      <MorePages list={topics} what="topics" />
    </article>
  )
}

function TopicRow({ topic, now }: { topic: TopicSummary; now: number }) {
  return (
    <li className="topic-row" data-testid="topic-row">
      <Link className="topic-title" to={`/discussions/${topic.id}`}>
        {topic.title}
      </Link>
      <span className="muted">
        {topic.category} · by <MemberName address={topic.author} /> · {count.format(topic.replies)}{' '}
        {topic.replies === 1 ? 'reply' : 'replies'} · last activity {relativeTime(topic.lastActivityAt, now)}
        {topic.locked ? ' · locked' : ''}
      </span>
      {topic.proposal ? (
        <span>
          Became proposal <Link to={`/proposals/${topic.proposal.id}`}>{topic.proposal.title}</Link>
        </span>
      ) : null}
    </li>
  )
}

/** The new topic form: category, title and text within their limits, signed with the discussion key. */
function NewTopic({ categories, onCancel }: { categories: readonly string[]; onCancel: () => void }) {
  const gate = useSessionGate()
  const config = usePublicConfig()
  const navigate = useNavigate()
  const create = useCreateTopic()
  const [category, setCategory] = useState(categories[0] ?? '')
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  if (!config.signIn)
    return <p className="muted">Sign-in is turned off on this server, so topics cannot be written here.</p>
  if (gate !== 'open') return <SessionGateNotice gate={gate} purpose="start a topic" />

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (title.trim() === '' || create.busy) return
    const answer = await create.run(async (author) => ({
      author,
      category,
      title: title.trim(),
      body,
      mentions: await resolveMentions(body),
      timestamp: Math.floor(Date.now() / 1000),
    }))
    if (answer) void navigate(`/discussions/${answer.topic.id}`)
  }

  return (
    <Card title="New topic">
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label>
          <span>Category</span>
          <select value={category} onChange={(event) => setCategory(event.target.value)}>
            {categories.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>Title</span>
          <input
            value={title}
            maxLength={DISCUSSION_LIMITS.titleMaxChars}
            onChange={(event) => setTitle(event.target.value)}
            required
          />
        </label>
        <p className="muted">Up to {count.format(DISCUSSION_LIMITS.titleMaxChars)} characters.</p>
        <label>
          <span>Text</span>
          <textarea
            value={body}
            rows={8}
            maxLength={DISCUSSION_LIMITS.bodyMaxChars}
            onChange={(event) => setBody(event.target.value)}
          />
        </label>
        <p className="muted">
          Up to {count.format(DISCUSSION_LIMITS.bodyMaxChars)} characters · markdown; mention a member as
          @name.eth or @0x…
        </p>
        <KeyNotice />
        <div className="composer-actions">
          <button type="submit" className="button primary" disabled={create.busy || title.trim() === ''}>
            Start the topic
          </button>
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
        <KeySignedStatusLine status={create.status} />
      </form>
    </Card>
  )
}
