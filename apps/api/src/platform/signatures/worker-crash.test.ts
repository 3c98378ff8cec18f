// A signature worker that crashes, seen over HTTP (ADR 063): the app runs the crashing worker
// (testbed/crashing-recover-worker.mjs, which ends its thread on a signature starting 0xdeaddead) on the demo
// chain and a real database. The request it was checking answers 503 signature_check_failed; the pool
// replaces the thread, so the member's next try is answered as usual.
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { PREAUTH_COOKIE, signedSignInMessage } from '../../../testbed/sign-in.ts'
import { demoDomain, member, signProposal, signVote } from '../../../testbed/signers.ts'
import {
  jsonHeaders,
  ORIGIN,
  postJson,
  startTestbed,
  stopTestbed,
  type Testbed,
  testSettings,
} from '../../../testbed/test-app.ts'
import { buildApp } from '../../app.ts'

const ada = member(1)
const ben = member(2)
const crashing = `0x${'deaddead'.repeat(16)}1b` as Hex
const refusal = {
  error: 'signature_check_failed',
  message: 'The signature could not be checked just now. Try again in a moment.',
}

let testbed: Testbed
let app: Awaited<ReturnType<typeof buildApp>>
let daoName: string

beforeAll(async () => {
  testbed = await startTestbed()
  const settings = testSettings({ rpcUrl: testbed.anvil.url, deployment: testbed.deployment })
  daoName = settings.publicConfig.dao.name
  app = await buildApp({
    settings,
    database: testbed.database,
    signatureWorker: new URL('../../../testbed/crashing-recover-worker.mjs', import.meta.url),
  })
  await app.ready()
}, 60_000)

afterAll(() => stopTestbed(testbed, app))

test('behavior: a vote whose signature worker crashes answers 503 signature_check_failed with Retry-After and stores nothing; the same vote sent again is stored (201)', async () => {
  await createTestClient({ mode: 'anvil', transport: http(testbed.anvil.url) }).mine({ blocks: 1 })
  const head = await createPublicClient({ transport: http(testbed.anvil.url) }).getBlockNumber()
  const snapshot = Number(head) - 1
  const domain = demoDomain(testbed.deployment)
  const proposal = await signProposal(ada, domain, { snapshot, title: 'Checked off the event loop' })
  const created = await postJson(app, '/api/proposals', {
    message: proposal.message,
    signature: proposal.signature,
  })
  expect(created.statusCode).toBe(201)

  const vote = await signVote(ben, domain, { proposal: proposal.id })
  const crashed = await postJson(app, `/api/proposals/${proposal.id}/votes`, {
    message: vote.message,
    signature: crashing,
  })
  expect(crashed.statusCode).toBe(503)
  expect(crashed.json()).toEqual(refusal)
  expect(crashed.headers['retry-after']).toBe('1')
  const votes = await app.inject({ url: `/api/proposals/${proposal.id}/votes`, headers: jsonHeaders })
  expect(votes.json().votes).toEqual([])

  const stored = await postJson(app, `/api/proposals/${proposal.id}/votes`, {
    message: vote.message,
    signature: vote.signature,
  })
  expect(stored.statusCode).toBe(201)
  expect(stored.json()).toMatchObject({ id: vote.id, created: true })
})

test('behavior: a sign-in whose signature worker crashes answers 503 signature_check_failed and keeps its nonce: signing in again with it succeeds', async () => {
  const nonce = await app.inject({ method: 'POST', url: '/api/auth/nonce', headers: { origin: ORIGIN } })
  const preauth = nonce.cookies.find((cookie) => cookie.name === PREAUTH_COOKIE)
  expect(preauth).toBeDefined()
  const signed = await signedSignInMessage(ada, { origin: ORIGIN, nonce: nonce.json().nonce, daoName })
  const verify = (signature: Hex) =>
    app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { ...jsonHeaders, cookie: `${PREAUTH_COOKIE}=${preauth?.value}` },
      payload: JSON.stringify({ message: signed.message, signature }),
    })
  const crashed = await verify(crashing)
  expect(crashed.statusCode).toBe(503)
  expect(crashed.json()).toEqual(refusal)
  const signedIn = await verify(signed.signature)
  expect(signedIn.statusCode).toBe(200)
  expect(signedIn.json()).toMatchObject({ session: { address: ada.address } })
})
