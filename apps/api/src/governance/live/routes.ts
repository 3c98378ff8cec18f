// Live events as server-sent events (@fastify/sse, ADR 024): a proposal's tallies, and the proposals list's
// new proposals. Each event's id is the log entry it stands at; a client that reconnects sends it back as
// Last-Event-ID and gets what it missed, read from the database, before the live events go on. The open
// streams, their caps and their writes are LiveStreams' (streams.ts, ADR 064).
import fastifySse from '@fastify/sse'
import { liveExecutionSchema, liveProposalSchema, liveTallySchema, liveThreadSchema } from '@guildhall/core'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ApiError } from '../../platform/http/errors.ts'
import { type ApiTypeProvider, errorAnswers } from '../../platform/http/openapi.ts'
import { named, proposalIdParams } from '../../platform/http/params.ts'
import type { LiveSettings } from '../../settings/live.ts'
import type { GovernanceDeps } from '../deps.ts'
import { requireProposal } from '../proposals.ts'
import { proposalResultAt } from '../results.ts'
import { type LiveEvent, LiveEvents, type LiveSend } from './live-events.ts'
import { LiveStreams } from './streams.ts'

/** A proposal's watchers get at most one tally per this many ms, however fast votes arrive (ADR 024). */
const TALLY_COALESCE_MS = 250

/** A stream of server-sent events, each `data` one of these as JSON; its `id` a log seq (send it back as Last-Event-ID). */
const eventStream = (description: string, data: z.core.$ZodType) => ({
  200: { description, content: { 'text/event-stream': { schema: data } } },
  ...errorAnswers,
})
/** `ready` on the list's stream: the log entry a new stream starts at. */
const liveReadySchema = z.strictObject({ seq: z.int() })

export interface EventRouteOptions {
  deps: GovernanceDeps
  /** LIVE_STREAMS_PER_CLIENT and LIVE_MAX_STREAMS. */
  caps: LiveSettings
  coalesceMs?: number
}

export async function eventRoutes(
  app: FastifyInstance,
  { deps, caps, coalesceMs = TALLY_COALESCE_MS }: EventRouteOptions,
) {
  // No heartbeat timer per stream: LiveStreams beats every stream from one (ADR 064).
  await app.register(fastifySse, { heartbeatInterval: 0 })
  const live = new LiveEvents({
    database: deps.database,
    now: deps.now,
    reads: deps.reads,
    coalesceMs,
    resultAt: (proposal) => proposalResultAt(deps, proposal),
    onError: (error) => app.log.error({ err: error }, 'live events'),
  })
  await live.start()
  const streams = new LiveStreams({ ...caps, observer: deps.observer })
  // Open streams never end by themselves: closing the server ends them first.
  app.addHook('preClose', async () => streams.closeAll())
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
    const opened = streams.open(request.ip, reply.raw, () => reply.sse.close())
    let lastSent = -1
    let waiting: LiveEvent[] | undefined = []
    const write = (event: LiveEvent) => {
      const seq = Number(event.id)
      if (seq <= lastSent || !reply.sse.isConnected) return
      lastSent = seq
      opened.send(event)
    }
    const unwatch = watch((event) => (waiting ? waiting.push(event) : write(event)))
    reply.sse.onClose(() => {
      unwatch()
      opened.release('client')
    })
    // Gone already (while the proposal was read): its close has passed, so nothing else would release it.
    if (!reply.sse.isConnected) {
      unwatch()
      return opened.release('client')
    }
    reply.sse.keepAlive()
    reply.sse.sendHeaders()
    // Node holds written headers until the first byte of body; a resumed stream may have nothing to say yet.
    reply.raw.flushHeaders()
    try {
      for (const event of await replay(lastEventId(request))) write(event)
    } catch (error) {
      // The client reconnects with the same Last-Event-ID and is replayed again.
      request.log.error({ err: error }, 'live events replay')
      opened.release('server')
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
