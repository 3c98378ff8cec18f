// Delegate statements over HTTP against a real chain (anvil with the demo DAO) and a real database (PGlite,
// or PostgreSQL under scripts/with-postgres.sh): published, replaced, read, and linked in the hash-chained log.
import {
  delegateStatementSchema,
  type LogEntry,
  logChainProblem,
  publishStatementResponseSchema,
} from '@guildhall/core'
import { count, eq } from 'drizzle-orm'
import { createPublicClient, type Hex, http } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  ben,
  cleo,
  database,
  domain,
  getStatement,
  logEntriesOf,
  newcomer,
  post,
  publish,
  signedStatement,
  useStatementsBed,
  versionsOf,
} from '../../testbed/beds/statements.ts'
import { nowSeconds, signProposal, signVote } from '../../testbed/signers.ts'
import { delegateStatements } from '../platform/db/schema.ts'

useStatementsBed()

describe('delegate statements (the adversarial vote cases, for statements)', () => {
  test('behavior: a valid statement → 201 with the digest id, logged as a statement; the exact replay → 200, one row; GET answers it with its signature and log seq', async () => {
    const signed = await signedStatement(ada)
    const first = await publish(ada.address, signed)
    expect(first.statusCode).toBe(201)
    expect(publishStatementResponseSchema.parse(first.json())).toEqual({ id: signed.id, created: true })
    const replay = await publish(ada.address, signed)
    expect(replay.statusCode).toBe(200)
    expect(replay.json()).toEqual({ id: signed.id, created: false })
    expect(await versionsOf(ada.address)).toBe(1)
    const [entry, ...more] = await logEntriesOf(signed.id)
    expect(more).toEqual([])
    expect(entry).toMatchObject({ kind: 'statement', proposalId: null, signature: signed.signature })

    // Any case of the address finds it; the answer is the shape the web app validates.
    const read = await getStatement(ada.address.toLowerCase())
    expect(read.statusCode).toBe(200)
    expect(delegateStatementSchema.parse(read.json())).toEqual({
      id: signed.id,
      message: signed.message,
      signature: signed.signature,
      seq: entry?.seq,
    })
  })

  test('behavior: a delegate without a statement → 404 with a sentence; a malformed address → 400', async () => {
    const none = await getStatement(cleo.address)
    expect(none.statusCode).toBe(404)
    expect(none.json()).toEqual({
      error: 'no_statement',
      message: 'This delegate has not published a statement.',
    })
    expect((await getStatement('0x1234')).statusCode).toBe(400)
  })

  test('behavior: a later statement replaces; an earlier one → 409 and is not stored; every accepted version is kept', async () => {
    const t = nowSeconds()
    const first = await signedStatement(ben, { statement: 'First.', timestamp: t - 10 })
    const later = await signedStatement(ben, { statement: 'Later.', timestamp: t })
    const earlier = await signedStatement(ben, { statement: 'Earlier.', timestamp: t - 20 })
    expect((await publish(ben.address, first)).statusCode).toBe(201)
    expect((await publish(ben.address, later)).statusCode).toBe(201)
    const refused = await publish(ben.address, earlier)
    expect(refused.statusCode).toBe(409)
    expect(refused.json().error).toBe('superseded')
    expect(await versionsOf(ben.address)).toBe(2)
    expect(await logEntriesOf(earlier.id)).toEqual([])
    expect((await getStatement(ben.address)).json().message.statement).toBe('Later.')
    // A replay of the replaced version is a replay (200), and leaves the latest as it is.
    expect((await publish(ben.address, first)).statusCode).toBe(200)
    expect((await getStatement(ben.address)).json().id).toBe(later.id)
  })

  test('behavior: equal timestamps → the lower id is the latest, whichever arrives first (as for votes)', async () => {
    const t = nowSeconds()
    const a = await signedStatement(cleo, { statement: 'Tie A', timestamp: t })
    const b = await signedStatement(cleo, { statement: 'Tie B', timestamp: t })
    const [lower, higher] = a.id < b.id ? [a, b] : [b, a]
    expect((await publish(cleo.address, higher)).statusCode).toBe(201)
    expect((await publish(cleo.address, lower)).statusCode).toBe(201)
    expect((await getStatement(cleo.address)).json().id).toBe(lower.id)
    const after = await signedStatement(cleo, { statement: 'Tie C', timestamp: t })
    expect((await publish(cleo.address, after)).statusCode).toBe(after.id < lower.id ? 201 : 409)
  })

  test('behavior: 30 concurrent versions and replays from one delegate → each version stored once, one log entry each, the latest by `supersedes` wins, no 5xx', async () => {
    const delegate = newcomer()
    const t = nowSeconds()
    const versions = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        signedStatement(delegate, { statement: `Version ${i}`, timestamp: t - 10 + i }),
      ),
    )
    const responses = await Promise.all(
      [...versions, ...versions, ...versions].map((signed) => publish(delegate.address, signed)),
    )
    const statuses = responses.map((response) => response.statusCode)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(statuses.every((status) => [200, 201, 409].includes(status))).toBe(true)
    // Whatever the arrival order, the newest is accepted and is the latest.
    const newest = versions.at(-1) as (typeof versions)[number]
    expect((await getStatement(delegate.address)).json().id).toBe(newest.id)
    const stored = await database.db
      .select({ id: delegateStatements.id })
      .from(delegateStatements)
      .where(eq(delegateStatements.delegate, delegate.address))
    expect(stored.length).toBe(statuses.filter((status) => status === 201).length)
    for (const { id } of stored) expect(await logEntriesOf(id as Hex)).toHaveLength(1)
  })
})

describe('statements in the hash-chained log', () => {
  test('behavior: the log export links statements with proposals and votes end to end; a proposal’s bundle carries only its own entries', async () => {
    // A proposal and a vote after the statements above, so the chain mixes all three kinds.
    const chain = createPublicClient({ transport: http(anvil.url) })
    const snapshot = Number(await chain.getBlockNumber({ cacheTime: 0 })) - 1
    const proposal = await signProposal(ada, domain, { snapshot, title: 'After the statements', body: '' })
    const { id } = proposal
    const created = await post('/api/proposals', { message: proposal.message, signature: proposal.signature })
    expect(created.statusCode).toBe(201)
    const vote = await signVote(ben, domain, { proposal: id })
    const voted = await post(`/api/proposals/${id}/votes`, {
      message: vote.message,
      signature: vote.signature,
    })
    expect(voted.statusCode).toBe(201)
    const last = await signedStatement(ada, { statement: 'After the vote.', timestamp: nowSeconds() + 1 })
    expect((await publish(ada.address, last)).statusCode).toBe(201)

    const { entries } = (await app.inject({ method: 'GET', url: '/api/governance/log' })).json() as {
      entries: LogEntry[]
    }
    const statementRows = (await database.db.select({ n: count() }).from(delegateStatements))[0]?.n
    expect(entries.filter((entry) => entry.kind === 'statement')).toHaveLength(statementRows ?? -1)
    expect(entries.map((entry) => entry.kind).slice(-3)).toEqual(['proposal', 'vote', 'statement'])
    expect(logChainProblem(entries)).toBeNull()
    const statementAt = entries.findIndex((entry) => entry.kind === 'statement')
    const tampered = entries.map((entry, i) =>
      i === statementAt ? { ...entry, signature: '0x00' as Hex } : entry,
    )
    expect(logChainProblem(tampered)).toEqual({
      seq: statementAt + 1,
      problem: 'its hash does not match its fields',
    })

    const bundle = (await app.inject({ method: 'GET', url: `/api/proposals/${id}/bundle` })).json()
    expect(bundle.log.map((entry: LogEntry) => entry.kind)).toEqual(['proposal', 'vote'])
  })
})
