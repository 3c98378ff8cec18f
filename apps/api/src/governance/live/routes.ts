// Live events as server-sent events (@fastify/sse, ADR 024): a proposal's tallies, and the proposals list's
// new proposals. Each event's id is the log entry it stands at; a client that reconnects sends it back as
// Last-Event-ID and gets what it missed, read from the database, before the live events go on.
import fastifySse from '@fastify/sse'
import { liveExecutionSchema, liveProposalSchema, liveTallySchema, liveThreadSchema } from '@guildhall/core'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../../platform/http/openapi.ts'
import { named, proposalIdParams } from '../../platform/http/params.ts'
import type { GovernanceDeps } from '../deps.ts'
import { requireProposal } from '../proposals.ts'
import { proposalResultAt } from '../results.ts'
import { type LiveEvent, LiveEvents, type LiveSend } from './live-events.ts'

/** A proposal's watchers get at most one tally per this many ms, however fast votes arrive (ADR 024). */
const TALLY_COALESCE_MS = 250
/** A comment line this often keeps proxies from closing a quiet stream (below REQUEST_TIMEOUT_MS's 30 s). */
const HEARTBEAT_MS = 15_000
/** Open streams per client address on one server: a few tabs each, and a bound on what one client holds. */
export const STREAMS_PER_CLIENT = 16
/** A client this far behind on reading is cut off; it reconnects and resumes from its last event id. */
const MAX_UNREAD_BYTES = 64 * 1024

/** A stream of server-sent events, each `data` one of these as JSON; its `id` a log seq (send it back as Last-Event-ID). */
const eventStream = (description: string, data: z.core.$ZodType) => ({
  200: { description, content: { 'text/event-stream': { schema: data } } },
  ...errorAnswers,
})
/** `ready` on the list's stream: the log entry a new stream starts at. */
const liveReadySchema = z.strictObject({ seq: z.int() })

export interface EventRouteOptions {
  deps: GovernanceDeps
  coalesceMs?: number
}

export async function eventRoutes(
  app: FastifyInstance,
  { deps, coalesceMs = TALLY_COALESCE_MS }: EventRouteOptions,
) {
  await app.register(fastifySse, { heartbeatInterval: HEARTBEAT_MS })
  const live = new LiveEvents({
    database: deps.database,
    now: deps.now,
    reads: deps.reads,
    coalesceMs,
    resultAt: (proposal) => proposalResultAt(deps, proposal),
    onError: (error) => app.log.error({ err: error }, 'live events'),
  })
  await live.start()
  const streamsByClient = new Map<string, number>()
  const openStreams = new Set<FastifyReply>()
  // Open streams never end by themselves: closing the server ends them first.
  app.addHook('preClose', async () => {
    for (const reply of openStreams) reply.sse.close()
  })
  app.addHook('onClose', () => live.stop())

  /**
   * Streams what `replay` reads for the client's Last-Event-ID, then what `watch` sends, each event once and
   * in log order. Watching starts before the replay, and what it sends meanwhile waits for the replay.
   */
  async function stream(
    request: FastifyRequest,
    reply: FastifyReply,
    watch: (send: LiveSend) => () => void,
    replay: (after: number | undefined) => Promise<LiveEvent[]>,
  ) {
    const client = request.ip
    const open = streamsByClient.get(client) ?? 0
    if (open >= STREAMS_PER_CLIENT) {
      throw new ApiError(429, 'too_many_streams', 'Too many live views are open from this address.', 10)
    }
    streamsByClient.set(client, open + 1)
    let lastSent = -1
    let waiting: LiveEvent[] | undefined = []
    const write = (event: LiveEvent) => {
      const seq = Number(event.id)
      if (seq <= lastSent || !reply.sse.isConnected) return
      if (reply.raw.writableLength > MAX_UNREAD_BYTES) return reply.sse.close()
      lastSent = seq
      reply.sse.send(event).catch(() => reply.sse.close())
    }
    const unwatch = watch((event) => (waiting ? waiting.push(event) : write(event)))
    openStreams.add(reply)
    let released = false
    const release = () => {
      if (released) return
      released = true
      unwatch()
      openStreams.delete(reply)
      const left = (streamsByClient.get(client) ?? 1) - 1
      if (left > 0) streamsByClient.set(client, left)
      else streamsByClient.delete(client)
    }
    reply.sse.onClose(release)
    // Gone already (while the proposal was read): its close has passed, so nothing else would release it.
    if (!reply.sse.isConnected) return release()
    reply.sse.keepAlive()
    reply.sse.sendHeaders()
    // Node holds written headers until the first byte of body; a resumed stream may have nothing to say yet.
    reply.raw.flushHeaders()
    try {
      for (const event of await replay(lastEventId(request))) write(event)
    } catch (error) {
      // The client reconnects with the same Last-Event-ID and is replayed again.
      request.log.error({ err: error }, 'live events replay')
      reply.sse.close()
      return
    }
    const queued = waiting
    waiting = undefined
    for (const event of queued) write(event)
  }

  const api = app.withTypeProvider<ApiTypeProvider>()

  api.get(
    '/api/proposals/:id/events',
    {
      sse: 'only',
      schema: {
        summary: 'A proposal’s live totals and execution signatures, as server-sent events',
        tags: ['live events'],
        params: named('proposal id', proposalIdParams),
        response: eventStream(
          '`tally` events: the totals now, then after each change (at most every 250 ms); `execution` events: a Safe signature of its queued transaction was logged (read its execution again).',
          z.union([liveTallySchema, liveExecutionSchema]),
        ),
      },
    },
    async (request, reply) => {
      const proposal = await requireProposal(deps, request.params.id)
      // The current result first (unless the client already has it): it counts every vote it missed.
      await stream(
        request,
        reply,
        (send) => live.watchProposal(proposal, send),
        async (after) => {
          const current = await live.tallyEvent(proposal)
          const tally = after === undefined || Number(current.id) > after ? [current] : []
          // A resumed stream also learns of a Safe signature it missed; in log order with the tally.
          const signed = after === undefined ? undefined : await live.executionAfter(proposal.id, after)
          return [...tally, ...(signed ? [signed] : [])].sort((a, b) => Number(a.id) - Number(b.id))
        },
      )
    },
  )

  api.get(
    '/api/threads/:id/events',
    {
      sse: 'only',
      schema: {
        summary:
          'A thread’s new comments, edits, reactions, moderation and vote cards, as server-sent events',
        tags: ['live events'],
        params: named('thread id', proposalIdParams),
        response: eventStream(
          '`thread` events: a log entry touched the thread (read it again); a resumed stream first gets those it missed.',
          liveThreadSchema,
        ),
      },
    },
    async (request, reply) => {
      const id = request.params.id
      if (!(await live.threadExists(id))) {
        throw new ApiError(404, 'unknown_thread', 'There is no proposal or topic with this id to discuss.')
      }
      await stream(
        request,
        reply,
        (send) => live.watchThread(id, send),
        async (after) => (after === undefined ? [] : live.threadEventsAfter(id, after)),
      )
    },
  )

  api.get(
    '/api/events',
    {
      sse: 'only',
      schema: {
        summary: 'New proposals, as server-sent events',
        tags: ['live events'],
        response: eventStream(
          '`ready` (where a new stream starts), then a `proposal` event for each proposal created.',
          z.union([liveReadySchema, liveProposalSchema]),
        ),
      },
    },
    async (request, reply) => {
      // A new stream starts where the log stands; a resumed one gets the proposals created since its id.
      await stream(
        request,
        reply,
        (send) => live.watchList(send),
        async (after) => (after === undefined ? [await live.readyEvent()] : live.proposalsAfter(after)),
      )
    },
  )
}

/** The client's Last-Event-ID as a log seq; anything else is ignored (a new stream), never an error. */
function lastEventId(request: FastifyRequest): number | undefined {
  const header = request.headers['last-event-id']
  return typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : undefined
}
