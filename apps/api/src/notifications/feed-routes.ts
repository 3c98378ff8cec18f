// GET /feeds/proposals.atom, /feeds/proposals/:id/discussion.atom, /feeds/topics.atom and /calendar.ics (ADR 055):
// public, read from the database, the latest entries only, cached a minute by anyone and revalidated by ETag.
// A comment's text is in its entry only while the thread shows it: not once withdrawn, hidden or taken down.

import { desc, eq } from 'drizzle-orm'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '../platform/db/client.ts'
import { comments, proposals, topics } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { named, proposalIdParams } from '../platform/http/params.ts'
import { type AtomEntry, atomDocument, etagOf, icsDocument } from './feeds.ts'
import { proposalUrl } from './webhook-events.ts'

/** Entries a feed holds, newest first. */
export const FEED_ENTRIES = 50
/** Voting windows the calendar holds, latest closing first. */
export const CALENDAR_EVENTS = 200
/** A proposal's body in a feed entry: the first characters, the page has the rest. */
const CONTENT_MAX_CHARS = 4000

const ATOM_TYPE = 'application/atom+xml; charset=utf-8'
const ICS_TYPE = 'text/calendar; charset=utf-8'

/** Feeds are documents for readers, not the JSON API: the API's OpenAPI document leaves them out (ADR 045). */
const notInTheDocument = { schema: { hide: true } }

export type FeedRoutesOptions = { db: Db; origin: string; daoName: string }

export async function feedRoutes(
  app: FastifyInstance,
  { db, origin, daoName }: FeedRoutesOptions,
): Promise<void> {
  app.get('/feeds/proposals.atom', notInTheDocument, async (request, reply) => {
    const rows = await db
      .select()
      .from(proposals)
      .orderBy(desc(proposals.createdAt), desc(proposals.id))
      .limit(FEED_ENTRIES)
    const body = atomDocument({
      self: `${origin}/feeds/proposals.atom`,
      alternate: `${origin}/proposals`,
      title: `${daoName}: proposals`,
      subtitle: 'New proposals and their voting windows',
      entries: rows.map((row) => proposalEntry(origin, row)),
    })
    return send(request, reply, ATOM_TYPE, body)
  })

  app.get(
    '/feeds/proposals/:id/discussion.atom',
    { schema: { params: named('proposal id', proposalIdParams), hide: true } },
    async (request, reply) => {
      const { id } = request.params as { id: string }
      const [row] = await db.select().from(proposals).where(eq(proposals.id, id))
      if (!row) throw ApiError.unknownProposal()
      const latest = await db
        .select()
        .from(comments)
        .where(eq(comments.threadId, id))
        .orderBy(desc(comments.logSeq))
        .limit(FEED_ENTRIES - 1)
      const body = atomDocument({
        self: `${origin}/feeds/proposals/${id}/discussion.atom`,
        alternate: proposalUrl(origin, id),
        title: `${daoName}: discussion of “${row.message.title}”`,
        entries: [
          ...latest.map((comment) => commentEntry(proposalUrl(origin, id), row.message.title, comment)),
          proposalEntry(origin, row),
        ],
      })
      return send(request, reply, ATOM_TYPE, body)
    },
  )

  app.get('/feeds/topics.atom', notInTheDocument, async (request, reply) => {
    const rows = await db.select().from(topics).orderBy(desc(topics.logSeq)).limit(FEED_ENTRIES)
    const body = atomDocument({
      self: `${origin}/feeds/topics.atom`,
      alternate: `${origin}/discussions`,
      title: `${daoName}: discussions`,
      subtitle: 'New topics',
      entries: rows.map((topic) => {
        const url = `${origin}/discussions/${topic.id}`
        const at = new Date(topic.createdAt * 1000)
        return {
          id: url,
          title: topic.title,
          updated: at,
          published: at,
          link: url,
          author: topic.author,
          summary: `In ${topic.category}`,
          content: topic.body === null ? 'Removed by the operator.' : excerpt(topic.body),
        }
      }),
    })
    return send(request, reply, ATOM_TYPE, body)
  })

  app.get('/calendar.ics', notInTheDocument, async (request, reply) => {
    const rows = await db
      .select()
      .from(proposals)
      .orderBy(desc(proposals.end), desc(proposals.id))
      .limit(CALENDAR_EVENTS)
    const host = new URL(origin).host
    const body = icsDocument(
      `${daoName}: voting windows`,
      rows.map((row) => ({
        uid: `${row.id}@${host}`,
        summary: `Vote: ${row.message.title}`,
        description: `Voting on “${row.message.title}”. ${proposalUrl(origin, row.id)}`,
        url: proposalUrl(origin, row.id),
        start: new Date(row.start * 1000),
        end: new Date(row.end * 1000),
        stamp: row.createdAt,
      })),
    )
    return send(request, reply, ICS_TYPE, body)
  })
}

function commentEntry(threadUrl: string, title: string, comment: typeof comments.$inferSelect): AtomEntry {
  const url = `${threadUrl}#comment-${comment.id}`
  const shown =
    comment.withdrawnSeq !== null
      ? 'Withdrawn by its author.'
      : comment.hiddenSeq !== null || comment.hiddenAuto
        ? `Hidden${comment.hiddenReason ? `: ${comment.hiddenReason}` : ''}.`
        : comment.body === null
          ? 'Removed by the operator.'
          : excerpt(comment.body)
  return {
    id: url,
    title: `Comment on “${title}”`,
    updated: new Date((comment.editedAt ?? comment.createdAt) * 1000),
    published: new Date(comment.createdAt * 1000),
    link: url,
    author: comment.author,
    summary: comment.parentId ? 'A reply' : 'A comment',
    content: shown,
  }
}

const excerpt = (text: string) =>
  text.length > CONTENT_MAX_CHARS ? `${text.slice(0, CONTENT_MAX_CHARS)}…` : text

function proposalEntry(origin: string, row: typeof proposals.$inferSelect): AtomEntry {
  const window = `Voting from ${new Date(row.start * 1000).toISOString()} to ${new Date(row.end * 1000).toISOString()}`
  return {
    id: proposalUrl(origin, row.id),
    title: row.message.title,
    updated: row.createdAt,
    published: row.createdAt,
    link: proposalUrl(origin, row.id),
    author: row.author,
    summary: window,
    content: excerpt(row.message.body),
  }
}

/** The document, or 304 when the client holds this version already. */
function send(request: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  const etag = etagOf(body)
  reply.header('cache-control', 'public, max-age=60').header('etag', etag)
  if (request.headers['if-none-match'] === etag) return reply.code(304).send()
  return reply.type(type).send(body)
}
