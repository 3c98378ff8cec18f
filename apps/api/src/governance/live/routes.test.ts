// Live events over real HTTP streams, against a real chain (anvil with the demo DAO) and a real database
// (PGlite, or PostgreSQL under scripts/with-postgres.sh, where the second app is a second instance with its
// own connections on the same database).
import { once } from 'node:events'
import { connect } from 'node:net'
import { liveProposalSchema, liveTallySchema } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { eq, sql } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, createTestClient, type Hex, http, type PrivateKeyAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { openStream } from '../../../testbed/event-stream.ts'
import {
  demoDomain,
  member,
  nowSeconds,
  signProposal,
  signStatement,
  signVote,
} from '../../../testbed/signers.ts'
import { postJson, startTestbed, stopTestbed, testApp } from '../../../testbed/test-app.ts'
import { type Database, openDatabase } from '../../platform/db/client.ts'
import { governanceLog, proposals, type StoredProposal } from '../../platform/db/schema.ts'
import type { TestDatabase } from '../../platform/db/test-database.ts'
import { LOG_CHANNEL, type LogNotice } from '../log.ts'
import { ProposalReads } from '../proposal-reads.ts'
import { storedTallyAt, tallyRules } from '../tallies.ts'
import { type LiveEvent, LiveEvents } from './live-events.ts'

vi.setConfig({ testTimeout: 30_000 })
const ada = member(1)
const ben = member(2)
const cleo = member(3)

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
/** The second instance's database: its own pool and LISTEN connection on PostgreSQL; the same PGlite. */
let otherDatabase: Database
let app: FastifyInstance
let other: FastifyInstance
let snapshot: number
let domain: ReturnType<typeof demoDomain>

/** The stored totals of a proposal of the older kinds, as the app's `proposalResultAt` reads them. */
async function storedResultAt(proposal: StoredProposal) {
  const stored = await storedTallyAt(database.db, proposal.id, tallyRules(proposal.message))
  if (!stored) throw new Error(`no tally row for ${proposal.id}`)
  return { result: stored.result, seq: stored.lastSeq, behind: false }
}

async function appOn(db: Database) {
  const built = await testApp({ anvil, deployment, database: db }, { env: { SIGN_IN: 'off' } })
  await built.listen({ host: '127.0.0.1', port: 0 })
  return built
}

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  domain = demoDomain(deployment)
  otherDatabase = database.url ? await openDatabase({ databaseUrl: database.url }) : database
  app = await appOn(database)
  other = await appOn(otherDatabase)
}, 60_000)

afterAll(async () => {
  await other?.close()
  if (otherDatabase !== database) await otherDatabase?.close()
  await stopTestbed({ anvil, database }, app)
})

const urlOf = (server: FastifyInstance, path: string) => {
  const address = server.server.address()
  if (!address || typeof address === 'string') throw new Error('not listening')
  return `http://127.0.0.1:${address.port}${path}`
}

const post = (url: string, body: unknown) => postJson(app, url, body)

async function createProposal(title: string): Promise<Hex> {
  const { message, signature, id } = await signProposal(ada, domain, { snapshot, title, body: '' })
  const response = await post('/api/proposals', { message, signature })
  expect(response.statusCode).toBe(201)
  return id
}

/** Votes and answers the vote's log seq. */
async function vote(voter: PrivateKeyAccount, proposal: Hex, choice: number, timestamp?: number) {
  const { message, signature } = await signVote(voter, domain, {
    proposal,
    choices: [choice],
    ...(timestamp === undefined ? {} : { timestamp }),
  })
  const response = await post(`/api/proposals/${proposal}/votes`, { message, signature })
  expect(response.statusCode).toBe(201)
  const [entry] = await database.db
    .select({ seq: governanceLog.seq })
    .from(governanceLog)
    .where(eq(governanceLog.messageId, response.json().id))
  return entry?.seq as number
}

/** Long enough for a coalesced flush (TALLY_COALESCE_MS) and its read to have gone out. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 800))

describe('a proposal’s stream', () => {
  test('behavior: a vote → a tally event whose id is the vote’s log seq, with the stored totals; a new stream starts with the current totals', async () => {
    const proposal = await createProposal('Live tally')
    const stream = await openStream(urlOf(app, `/api/proposals/${proposal}/events`))
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const [first] = await stream.until(1)
    const [created] = await database.db
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .where(eq(governanceLog.messageId, proposal))
    expect(first).toMatchObject({ event: 'tally', id: String(created?.seq) })
    expect(liveTallySchema.parse(first?.data).tally.voters).toBe(0)

    const seq = await vote(ben, proposal, 1)
    const [, second] = await stream.until(2)
    expect(second?.id).toBe(String(seq))
    const data = liveTallySchema.parse(second?.data)
    expect(data).toMatchObject({ proposalId: proposal, seq })
    expect(data.tally.voters).toBe(1)
    const detail = await app.inject({ method: 'GET', url: `/api/proposals/${proposal}` })
    expect(data.tally).toEqual(detail.json().tally)
    stream.close()
  })

  test('behavior: resumed with Last-Event-ID → one tally counting exactly the votes missed; with the latest id → nothing until the next vote', async () => {
    const proposal = await createProposal('Resume a tally')
    const before = await vote(ben, proposal, 1)
    const first = await openStream(urlOf(app, `/api/proposals/${proposal}/events`))
    expect((await first.until(1))[0]?.id).toBe(String(before))
    first.close()

    // Missed: Cleo votes, Ben changes his mind.
    await vote(cleo, proposal, 2)
    const missedLast = await vote(ben, proposal, 3, nowSeconds() + 1)
    const resumed = await openStream(urlOf(app, `/api/proposals/${proposal}/events`), {
      'last-event-id': String(before),
    })
    const [replayed] = await resumed.until(1)
    expect(replayed?.id).toBe(String(missedLast))
    const { tally } = liveTallySchema.parse(replayed?.data)
    expect(tally.voters).toBe(2)
    expect(tally.perChoice[0]).toBe('0') // Ben's first vote no longer counts
    await settle()
    expect(resumed.events).toHaveLength(1)
    resumed.close()

    const upToDate = await openStream(urlOf(app, `/api/proposals/${proposal}/events`), {
      'last-event-id': String(missedLast),
    })
    await settle()
    expect(upToDate.events).toEqual([])
    const next = await vote(ada, proposal, 1)
    expect((await upToDate.until(1))[0]?.id).toBe(String(next))
    upToDate.close()
  })

  test('behavior: a vote on one instance reaches a stream on another instance on the same database', async () => {
    const proposal = await createProposal('Across instances')
    const stream = await openStream(urlOf(other, `/api/proposals/${proposal}/events`))
    await stream.until(1)
    const seq = await vote(cleo, proposal, 1) // through `app`
    const [, event] = await stream.until(2)
    expect(event?.id).toBe(String(seq))
    expect(liveTallySchema.parse(event?.data).tally.voters).toBe(1)
    stream.close()
  })

  test('behavior: a malformed Last-Event-ID is ignored (a new stream), an unknown proposal → 404, a client that refuses event streams → 406', async () => {
    const proposal = await createProposal('Edges')
    for (const bad of ['abc', '-1', '1e3', '99999999999999999999', '']) {
      const stream = await openStream(urlOf(app, `/api/proposals/${proposal}/events`), {
        'last-event-id': bad,
      })
      expect(stream.response.status).toBe(200)
      expect((await stream.until(1))[0]?.event).toBe('tally')
      stream.close()
    }
    const unknown = await openStream(urlOf(app, `/api/proposals/0x${'ab'.repeat(32)}/events`))
    expect(unknown.response.status).toBe(404)
    expect(await unknown.response.json()).toMatchObject({ error: 'unknown_proposal' })
    const json = await fetch(urlOf(app, `/api/proposals/${proposal}/events`), {
      headers: { accept: 'application/json' },
    })
    expect(json.status).toBe(406)
  })
})

describe('the list’s stream', () => {
  test('behavior: a new stream starts with `ready` at the log’s head; resumed from it → exactly the proposals created since, with their seqs as ids', async () => {
    const stream = await openStream(urlOf(app, '/api/events'))
    const [ready] = await stream.until(1)
    const [head] = await database.db
      .select({ seq: sql<number>`max(${governanceLog.seq})` })
      .from(governanceLog)
    expect(ready).toEqual({ event: 'ready', id: String(head?.seq), data: { seq: Number(head?.seq) } })
    stream.close()

    const missed = [await createProposal('Missed one'), await createProposal('Missed two')]
    const proposal = await createProposal('Missed three')
    await vote(ben, proposal, 1) // votes are not list events
    missed.push(proposal)
    const resumed = await openStream(urlOf(other, '/api/events'), { 'last-event-id': String(ready?.id) })
    const replayed = await resumed.until(3)
    await settle()
    const seqs = await database.db
      .select({ seq: governanceLog.seq, id: governanceLog.messageId })
      .from(governanceLog)
      .innerJoin(proposals, eq(proposals.id, governanceLog.messageId))
      .where(sql`${governanceLog.seq} > ${Number(ready?.id)}`)
    expect(resumed.events).toEqual(
      missed.map((id) => {
        const seq = seqs.find((row) => row.id === id)?.seq as number
        return { event: 'proposal', id: String(seq), data: { proposalId: id, seq } }
      }),
    )
    expect(replayed.every((event) => liveProposalSchema.safeParse(event.data).success)).toBe(true)

    // Live: a proposal created through one instance reaches the other's list stream.
    const created = await createProposal('Live on the list')
    const [, , , live] = await resumed.until(4)
    expect(live).toMatchObject({ event: 'proposal', data: { proposalId: created } })
    resumed.close()
  })

  test('behavior: a delegate statement is in the log but on no stream: the list stream’s next event is the next proposal, with its own seq', async () => {
    const stream = await openStream(urlOf(other, '/api/events'))
    await stream.until(1)
    const { message, signature } = await signStatement(cleo, domain, { statement: 'Not a proposal.' })
    const published = await post(`/api/delegates/${cleo.address}/statement`, { message, signature })
    expect(published.statusCode).toBe(201)
    const created = await createProposal('After a statement')
    const [, next] = await stream.until(2)
    await settle()
    const [entry] = await database.db
      .select({ seq: governanceLog.seq })
      .from(governanceLog)
      .where(eq(governanceLog.messageId, created))
    expect(stream.events.slice(1)).toEqual([
      { event: 'proposal', id: String(entry?.seq), data: { proposalId: created, seq: entry?.seq } },
    ])
    expect(next?.data).toEqual({ proposalId: created, seq: entry?.seq })
    stream.close()
  })
})

describe('fan-out', () => {
  test('behavior: a vote announced on the log channel (by this server or another) ends the sharing of the reads of its proposal already running', async () => {
    const proposal = await createProposal('Announced vote')
    const reads = new ProposalReads()
    const live = new LiveEvents({
      database,
      now: () => new Date(),
      reads,
      coalesceMs: 50,
      resultAt: storedResultAt,
      onError: (e) => {
        throw e
      },
    })
    await live.start()
    try {
      /** Whether a reader asking now reads anew (true) or joins the read already running (false). */
      const readsAnew = () => {
        let asked = false
        void reads.shared(proposal, 'tally', async () => {
          asked = true
          return 'read anew'
        })
        return asked
      }
      let finishRunning!: (value: string) => void
      const running = reads.shared(
        proposal,
        'tally',
        () => new Promise<string>((done) => (finishRunning = done)),
      )
      expect(readsAnew()).toBe(false)
      // The vote is stored by the app, which shares only the database with this LiveEvents.
      await vote(ada, proposal, 1)
      await expect.poll(readsAnew).toBe(true)
      finishRunning('before the vote')
      expect(await running).toBe('before the vote')
    } finally {
      await live.stop()
    }
  })

  test('behavior: 200 log notices for one proposal in a burst → a handful of tally reads, each one event shared by every watcher', async () => {
    const proposal = await createProposal('Coalesced')
    const [stored] = await database.db.select().from(proposals).where(eq(proposals.id, proposal))
    if (!stored) throw new Error('the proposal is not stored')
    const live = new LiveEvents({
      database,
      now: () => new Date(),
      reads: new ProposalReads(),
      coalesceMs: 300,
      resultAt: storedResultAt,
      onError: (e) => {
        throw e
      },
    })
    await live.start()
    try {
      const received: LiveEvent[][] = Array.from({ length: 100 }, () => [])
      const stops = received.map((list) => live.watchProposal(stored, (event) => list.push(event)))
      const notice: LogNotice = { seq: 1, kind: 'vote', proposalId: proposal }
      const started = Date.now()
      for (let i = 0; i < 200; i++) {
        await database.db.execute(sql`select pg_notify(${LOG_CHANNEL}, ${JSON.stringify(notice)})`)
      }
      const windows = Math.ceil((Date.now() - started) / 300) + 1
      await settle()
      for (const stop of stops) stop()
      const first = received[0] ?? []
      expect(first.length).toBeGreaterThanOrEqual(1)
      expect(first.length).toBeLessThanOrEqual(windows)
      for (const list of received) expect(list).toEqual(first)
      // One read per flush: every watcher got the very same event object.
      expect(received.every((list) => list.every((event, i) => event === first[i]))).toBe(true)
    } finally {
      await live.stop()
    }
  })
})

describe('at size (ADR 064)', () => {
  /** An app of its own with these live settings, listening; closed by the test. */
  const appWith = async (env: Record<string, string>) => {
    const built = await testApp({ anvil, deployment, database }, { env: { SIGN_IN: 'off', ...env } })
    await built.listen({ host: '127.0.0.1', port: 0 })
    return built
  }

  test('behavior: beyond LIVE_STREAMS_PER_CLIENT from one address → 429 too_many_streams; beyond LIVE_MAX_STREAMS on the instance → 503 live_full with its sentence and Retry-After; closed streams free their places', async () => {
    // Behind a proxy that names the client, as in production; each X-Forwarded-For is a client address.
    const capped = await appWith({
      LIVE_STREAMS_PER_CLIENT: '2',
      LIVE_MAX_STREAMS: '3',
      TRUST_PROXY: '127.0.0.1',
    })
    try {
      const from = (client: string) => openStream(urlOf(capped, '/api/events'), { 'x-forwarded-for': client })
      const first = [await from('10.0.0.1'), await from('10.0.0.1')]
      for (const stream of first) expect(stream.response.status).toBe(200)
      const tooMany = await from('10.0.0.1')
      expect(tooMany.response.status).toBe(429)
      expect(tooMany.response.headers.get('retry-after')).toBe('10')
      expect(await tooMany.response.json()).toEqual({
        error: 'too_many_streams',
        message: 'Too many live views are open from this address.',
      })
      const third = await from('10.0.0.2')
      expect(third.response.status).toBe(200)
      const full = await from('10.0.0.3')
      expect(full.response.status).toBe(503)
      expect(full.response.headers.get('retry-after')).toBe('30')
      expect(await full.response.json()).toEqual({
        error: 'live_full',
        message:
          'This server is showing as many live views as it can. The page still updates when you reload it.',
      })
      first[0]?.close()
      await expect
        .poll(async () => {
          const again = await from('10.0.0.3')
          again.close()
          return again.response.status
        })
        .toBe(200)
      for (const stream of [...first, third]) stream.close()
    } finally {
      await capped.close()
    }
  })

  test('behavior: a thread stream whose reader stops reading is cut off while events keep coming; the streams that read get every event, in order', async () => {
    const proposal = await createProposal('Stalled reader')
    const url = urlOf(app, `/api/threads/${proposal}/events`)
    const readers = [await openStream(url), await openStream(url)]
    const stalled = await stalledReader(url)
    // Far more than loopback's socket buffers hold (about 3 MB measured), sent as the log's writers send
    // notices: 200 per transaction, each frame about 150 bytes.
    const batches = 300
    const perBatch = 200
    const base = 1_000_000
    for (let batch = 0; batch < batches; batch++) {
      await database.db.execute(sql`
        select pg_notify(${LOG_CHANNEL}, json_build_object(
          'seq', ${base + batch * perBatch}::int + n, 'kind', 'comment', 'proposalId', null,
          'threadId', ${proposal}::text
        )::text)
        from generate_series(1, ${perBatch}::int) as n`)
      // The readers keep up: each has every event of the batch before the next is sent (on PostgreSQL the
      // notices of several transactions could otherwise reach the server in one read, and a reader in this
      // busy process would fall 64 KiB behind too).
      for (const reader of readers) await reader.until((batch + 1) * perBatch)
    }
    const total = batches * perBatch
    for (const reader of readers) {
      const events = reader.events
      expect(events.map((event) => Number(event.id))).toEqual(
        Array.from({ length: total }, (_, i) => base + 1 + i),
      )
      reader.close()
    }
    // The stalled reader, reading at last: its stream was ended, well short of the last event.
    const { bytes, lastId } = await stalled.readToEnd()
    expect(lastId).toBeLessThan(base + total)
    expect(bytes).toBeLessThan(total * 150)
  }, 120_000)

  test('behavior: 60 streams on one proposal during a burst of votes → each gets a handful of tallies (one per 250 ms window at most), the same events for every stream, the last one counting every vote', async () => {
    const wide = await appWith({ LIVE_STREAMS_PER_CLIENT: '100' })
    try {
      const proposal = await createProposal('Watched by many')
      const url = urlOf(wide, `/api/proposals/${proposal}/events`)
      const streams = await Promise.all(Array.from({ length: 60 }, () => openStream(url)))
      for (const stream of streams) await stream.until(1)
      const now = nowSeconds()
      const signed = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          signVote([ada, ben, cleo][i % 3] as PrivateKeyAccount, domain, {
            proposal,
            choices: [1 + (i % 3)],
            timestamp: now - 100 + i,
          }),
        ),
      )
      const started = Date.now()
      const answers = await Promise.all(
        signed.map(({ message, signature }) =>
          post(`/api/proposals/${proposal}/votes`, { message, signature }),
        ),
      )
      const windows = Math.ceil((Date.now() - started) / 250) + 2
      // A later re-vote of a voter may arrive before an earlier one, which is then refused (409).
      expect(answers.every((answer) => [201, 409].includes(answer.statusCode))).toBe(true)
      const detail = (await app.inject({ method: 'GET', url: `/api/proposals/${proposal}` })).json()
      const last = async (stream: (typeof streams)[number]) => {
        await expect
          .poll(() => liveTallySchema.parse(stream.events.at(-1)?.data).tally, { timeout: 10_000 })
          .toEqual(detail.tally)
        return stream.events
      }
      const first = await last(streams[0] as (typeof streams)[number])
      expect(first.length - 1).toBeGreaterThanOrEqual(1)
      expect(first.length - 1).toBeLessThanOrEqual(windows)
      expect(liveTallySchema.parse(first.at(-1)?.data).tally.voters).toBe(3)
      // After each stream's own first event (the totals when it opened, read for it alone), the same events.
      for (const stream of streams) {
        expect((await last(stream)).slice(1)).toEqual(first.slice(1))
        stream.close()
      }
    } finally {
      await wide.close()
    }
  }, 60_000)
})

/** An event stream over a raw socket that reads its headers and then nothing, until `readToEnd`. */
async function stalledReader(url: string) {
  const { port, pathname } = new URL(url)
  const socket = connect(Number(port), '127.0.0.1')
  await once(socket, 'connect')
  socket.write(
    `GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n`,
  )
  const head = await new Promise<string>((resolve) =>
    socket.once('data', (chunk: Buffer) => {
      socket.pause()
      resolve(chunk.toString('latin1'))
    }),
  )
  expect(head).toMatch(/^HTTP\/1\.1 200/)
  return {
    /** Reads what the server wrote until it ended the stream: the bytes and the last event id. */
    async readToEnd() {
      let text = ''
      socket.setEncoding('latin1')
      socket.on('data', (chunk: string) => (text += chunk))
      socket.resume()
      await once(socket, 'end')
      const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]))
      return { bytes: text.length, lastId: ids.at(-1) ?? 0 }
    },
  }
}
