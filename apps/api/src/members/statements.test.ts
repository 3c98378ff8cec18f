// Delegate statements over HTTP against a real chain (anvil with the demo DAO) and a real database (PGlite,
// or PostgreSQL under scripts/with-postgres.sh): the adversarial vote cases of docs/security.md, for
// statements.
import {
  BASIC_CHOICES,
  type DelegateStatementMessage,
  delegateStatementId,
  delegateStatementSchema,
  delegateStatementTypedData,
  GOVERNANCE_LIMITS,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type LogEntry,
  logChainProblem,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  publishStatementResponseSchema,
  TIMESTAMP_MAX_AGE_SECONDS,
  TIMESTAMP_MAX_SKEW_SECONDS,
  type VoteMessage,
  voteTypedData,
} from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { deploySafes, type SafeDeployment, signHashAsSafe } from '@guildhall/devchain/safe'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { type Address, createPublicClient, type Hex, http, type PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  jsonHeaders,
  member,
  nowSeconds,
  postJson,
  startTestbed,
  stopTestbed,
  testApp,
} from '../../testbed/app.ts'
import { delegateStatements, governanceLog } from '../platform/db/schema.ts'
import type { TestDatabase } from '../platform/db/test-database.ts'

const ada = member(1)
const ben = member(2)
const cleo = member(3)
/** An address no other test speaks for: statements need no tokens. */
const newcomer = () => privateKeyToAccount(generatePrivateKey())
const stranger = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318')

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let app: FastifyInstance
let domain: ReturnType<typeof governanceDomain>
let safes: SafeDeployment

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
  app = await appOn()
}, 60_000)

afterAll(() => stopTestbed({ anvil, database }, app))

/** An app sharing this file's database; on PostgreSQL every app on it counts rate limits together. */
const appOn = (env: Record<string, string> = {}) =>
  testApp(
    { anvil, deployment, database },
    { env: { SIGN_IN: 'off', EXPORT_RATE_LIMIT_PER_MINUTE: '100000', ...env } },
  )

const post = (url: string, body: unknown) => postJson(app, url, body)
const statementUrl = (delegate: Address) => `/api/delegates/${delegate}/statement`
const getStatement = (delegate: string) =>
  app.inject({ method: 'GET', url: `/api/delegates/${delegate}/statement` })

async function signedStatement(
  signer: PrivateKeyAccount,
  overrides: Partial<DelegateStatementMessage> = {},
  signingDomain = domain,
) {
  const message: DelegateStatementMessage = {
    delegate: signer.address,
    statement: 'I read **every** proposal and explain each vote.',
    timestamp: nowSeconds(),
    ...overrides,
  }
  const signature = await signer.signTypedData(delegateStatementTypedData(signingDomain, message))
  return { message, signature, id: delegateStatementId(domain, message) }
}
/** The request body of a signed statement: exactly the message and the signature. */
const publish = (delegate: Address, { message, signature }: { message: unknown; signature: Hex }) =>
  post(statementUrl(delegate), { message, signature })

const versionsOf = async (delegate: Address) =>
  (
    await database.db
      .select({ n: count() })
      .from(delegateStatements)
      .where(eq(delegateStatements.delegate, delegate))
  )[0]?.n ?? 0
const logEntriesOf = async (messageId: Hex) =>
  database.db.select().from(governanceLog).where(eq(governanceLog.messageId, messageId))

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

  test.each([
    [
      'another key',
      async () => ({
        ...(await signedStatement(ben)),
        signature: (await signedStatement(stranger)).signature,
      }),
    ],
    ['another chain id', () => signedStatement(ben, {}, { ...domain, chainId: 1 })],
    [
      'another token',
      () =>
        signedStatement(
          ben,
          {},
          { ...domain, verifyingContract: '0x0000000000000000000000000000000000000001' },
        ),
    ],
    [
      'another domain name',
      () => signedStatement(ben, {}, { ...domain, name: 'Snapshot' } as unknown as typeof domain),
    ],
    [
      'another version',
      () => signedStatement(ben, {}, { ...domain, version: '2' } as unknown as typeof domain),
    ],
    [
      'the text altered',
      async () => {
        const signed = await signedStatement(ben, { statement: 'I will vote For.' })
        return { ...signed, message: { ...signed.message, statement: 'I will vote Against.' } }
      },
    ],
    [
      'another delegate (filed under Ben, signed by the stranger for herself)',
      async () => {
        const signed = await signedStatement(stranger)
        return { ...signed, message: { ...signed.message, delegate: ben.address } }
      },
    ],
  ])('parameters: a statement signed with %s → 401, nothing stored', async (_name, make) => {
    const before = await versionsOf(ben.address)
    const { message, signature } = await make()
    const response = await publish(ben.address, { message, signature })
    expect(response.statusCode).toBe(401)
    expect(response.json().error).toBe('bad_signature')
    expect(await versionsOf(ben.address)).toBe(before)
  })

  test('behavior: a statement signed by Ada but filed under Ben’s address → 401 (the server takes the delegate from the URL)', async () => {
    const before = await versionsOf(ben.address)
    const signed = await signedStatement(ada, { statement: 'Filed elsewhere.' })
    const response = await publish(ben.address, signed)
    expect(response.statusCode).toBe(401)
    expect(await versionsOf(ben.address)).toBe(before)
    expect(await logEntriesOf(signed.id)).toEqual([])
  })

  test.each([
    [
      'signed more than TIMESTAMP_MAX_AGE_SECONDS ago',
      () => nowSeconds() - TIMESTAMP_MAX_AGE_SECONDS - 60,
      /signed more than 6 days ago/,
    ],
    [
      'dated beyond TIMESTAMP_MAX_SKEW_SECONDS ahead',
      () => nowSeconds() + TIMESTAMP_MAX_SKEW_SECONDS + 60,
      /more than 5 minutes ahead/,
    ],
  ])('boundary: a statement %s → 422 naming the limit, nothing stored', async (_name, timestamp, message) => {
    const signer = newcomer()
    const signed = await signedStatement(signer, { timestamp: timestamp() })
    const response = await publish(signer.address, signed)
    expect(response.statusCode).toBe(422)
    expect(response.json()).toEqual({ error: 'bad_timestamp', message: expect.stringMatching(message) })
    expect(await versionsOf(signer.address)).toBe(0)
  })

  test('boundary: oversized → 400 naming the limit (characters, then UTF-8 bytes); a body beyond what any statement needs → 413; nothing stored', async () => {
    const signer = newcomer()
    const L = GOVERNANCE_LIMITS
    const atLimit = await signedStatement(signer, { statement: 'é'.repeat(L.statementMaxBytes / 2) })
    const characters = await signedStatement(signer, { statement: 'x'.repeat(L.statementMax + 1) })
    const bytes = await signedStatement(signer, {
      statement: `${'é'.repeat(L.statementMaxBytes / 2 - 1)}€`,
    })
    const tooManyCharacters = await publish(signer.address, characters)
    expect(tooManyCharacters.statusCode).toBe(400)
    expect(tooManyCharacters.json().message).toContain('The statement must be at most 10000 characters')
    const tooManyBytes = await publish(signer.address, bytes)
    expect(tooManyBytes.statusCode).toBe(400)
    expect(tooManyBytes.json().message).toContain('The statement must be at most 20000 bytes in UTF-8')
    const huge = await publish(signer.address, {
      ...atLimit,
      message: { ...atLimit.message, statement: 'x'.repeat(70_000) },
    })
    expect(huge.statusCode).toBe(413)
    expect(await versionsOf(signer.address)).toBe(0)
    // At both limits, and every character escaped in JSON (\u00e9, 6 bytes each): within the body limit.
    const escaped = JSON.stringify({ message: atLimit.message, signature: atLimit.signature }).replaceAll(
      'é',
      '\\u00e9',
    )
    const response = await app.inject({
      method: 'POST',
      url: statementUrl(signer.address),
      headers: jsonHeaders,
      payload: escaped,
    })
    expect(response.statusCode).toBe(201)
    expect((await getStatement(signer.address)).json().message.statement).toBe(atLimit.message.statement)
  })

  test('behavior: NUL bytes, a lone UTF-16 surrogate, prototype-pollution keys and unknown fields → 400, nothing stored', async () => {
    const signer = newcomer()
    const signed = await signedStatement(signer)
    for (const message of [
      { ...signed.message, statement: 'a\u0000b' },
      { ...signed.message, statement: 'ok\ud83d' },
      { ...signed.message, version: 2 },
      JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(signed.message).slice(1)}`),
    ]) {
      const response = await publish(signer.address, { message, signature: signed.signature })
      expect(response.statusCode, JSON.stringify(message).slice(0, 60)).toBe(400)
    }
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined()
    const surrogate = await publish(signer.address, {
      message: { ...signed.message, statement: 'ok\ud83d' },
      signature: signed.signature,
    })
    expect(surrogate.json().message).toContain('The statement must be valid Unicode text')
    expect(await versionsOf(signer.address)).toBe(0)
  })

  test('behavior: markdown with a script, an onerror handler and a javascript: link is stored and answered verbatim (it is signed; the page sanitises it)', async () => {
    const statement = `<script>alert(1)</script><img src=x onerror=alert(1)> [me](javascript:alert(1)) '); DROP TABLE votes; --`
    const signer = newcomer()
    const signed = await signedStatement(signer, { statement })
    expect((await publish(signer.address, signed)).statusCode).toBe(201)
    expect((await getStatement(signer.address)).json().message.statement).toBe(statement)
  })

  test('behavior: a 1-of-1 Safe publishes with its owner’s ERC-1271 signature → 201; the owner’s own signature for the Safe → 401', async () => {
    const message: DelegateStatementMessage = {
      delegate: safes.oneOfOne.address,
      statement: 'The treasury multisig speaks here.',
      timestamp: nowSeconds(),
    }
    const id = delegateStatementId(domain, message)
    const ownersKey = await ada.signTypedData(delegateStatementTypedData(domain, message))
    expect((await publish(message.delegate, { message, signature: ownersKey })).statusCode).toBe(401)
    const signature = await signHashAsSafe({
      safe: message.delegate,
      chainId: LOCAL_CHAIN_ID,
      owners: [ada],
      hash: id,
    })
    const response = await publish(message.delegate, { message, signature })
    expect(response.statusCode).toBe(201)
    expect((await getStatement(message.delegate)).json()).toMatchObject({ id, signature })
  })

  test('behavior: a burst beyond GOVERNANCE_RATE_LIMIT_PER_MINUTE → 429 before any check; reading is not limited', async () => {
    const limited = await appOn({ GOVERNANCE_RATE_LIMIT_PER_MINUTE: '2' })
    try {
      const signer = newcomer()
      const signed = await signedStatement(signer)
      // A client no other test is: on PostgreSQL the counts of every app on the database are one.
      const remoteAddress = '203.0.113.15'
      const statuses = []
      for (let i = 0; i < 3; i++) {
        const response = await limited.inject({
          method: 'POST',
          url: statementUrl(signer.address),
          headers: jsonHeaders,
          payload: JSON.stringify({ message: signed.message, signature: signed.signature }),
          remoteAddress,
        })
        statuses.push(response.statusCode)
      }
      expect(statuses).toEqual([201, 200, 429])
      const reads = []
      for (let i = 0; i < 3; i++) {
        reads.push(
          (await limited.inject({ method: 'GET', url: statementUrl(signer.address), remoteAddress }))
            .statusCode,
        )
      }
      expect(reads).toEqual([200, 200, 200])
    } finally {
      await limited.close()
    }
  })
})

describe('statements in the hash-chained log', () => {
  test('behavior: the log export links statements with proposals and votes end to end; a proposal’s bundle carries only its own entries', async () => {
    // A proposal and a vote after the statements above, so the chain mixes all three kinds.
    const chain = createPublicClient({ transport: http(anvil.url) })
    const now = nowSeconds()
    const proposal: ProposalMessage = {
      author: ada.address,
      title: 'After the statements',
      body: '',
      kind: 'basic',
      choices: [...BASIC_CHOICES],
      start: now - 60,
      end: now + 3600,
      snapshot: Number(await chain.getBlockNumber({ cacheTime: 0 })) - 1,
      quorum: '1000000000000000000000',
      threshold: '1000000000000000000',
      abstainCountsToQuorum: true,
      timestamp: now - 30,
    }
    const id = proposalId(domain, proposal)
    const created = await post('/api/proposals', {
      message: proposal,
      signature: await ada.signTypedData(proposalTypedData(domain, proposal)),
    })
    expect(created.statusCode).toBe(201)
    const vote: VoteMessage = { voter: ben.address, proposal: id, choices: [1], reason: '', timestamp: now }
    const voted = await post(`/api/proposals/${id}/votes`, {
      message: vote,
      signature: await ben.signTypedData(voteTypedData(domain, vote)),
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
