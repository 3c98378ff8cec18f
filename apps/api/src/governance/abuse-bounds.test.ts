// Abuse bounds of the governance routes: rate limits, cheap checks first, bounded chain work; against a real
// chain (anvil with the demo DAO) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh);
// the setup is the kit's governance bed (testbed/beds/governance.ts).

import type { ProposalMessage, VoteMessage } from '@guildhall/core'
import { SIGNATURE_CHECK_GAS } from '@guildhall/core'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import type { FastifyInstance } from 'fastify'
import {
  createTestClient,
  getAddress,
  type Hex,
  http,
  numberToHex,
  type PrivateKeyAccount,
  serializeErc6492Signature,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  appOn,
  ben,
  createProposal,
  proposalMessage,
  signedVote,
  useGovernanceBed,
  votesOn,
} from '../../testbed/beds/governance.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { jsonHeaders } from '../../testbed/test-app.ts'

useGovernanceBed()

describe('abuse bounds: rate limits, cheap checks first, bounded chain work', () => {
  /** A signature that is no one's: checking it ends in asking the chain whether the voter is a contract. */
  const BOGUS_SIGNATURE = `0x${'11'.repeat(65)}` as Hex
  // The token index follows the chain in the background through the same node; its reads are these.
  const INDEX_METHODS = new Set(['eth_blockNumber', 'eth_getLogs', 'eth_getBlockByNumber'])
  const DAY_MS = 24 * 3600 * 1000
  let proxy: RecordingProxy
  const requestCalls = (from: number) =>
    proxy.calls
      .slice(from)
      .filter((call) => !INDEX_METHODS.has(call.method))
      .map((call) => call.method)
  const bogusVote = async (voter: PrivateKeyAccount, on: Hex, overrides: Partial<VoteMessage> = {}) => ({
    message: (await signedVote(voter, on, overrides)).message,
    signature: BOGUS_SIGNATURE,
  })

  beforeAll(async () => {
    proxy = await startRecordingProxy(anvil.url)
  })
  afterAll(() => proxy?.close())

  test('behavior: a burst beyond GOVERNANCE_RATE_LIMIT_PER_MINUTE / EXPORT_RATE_LIMIT_PER_MINUTE / POWER_RATE_LIMIT_PER_MINUTE → 429 with Retry-After and the JSON envelope, before any chain call; other clients and routes go on', async () => {
    const limited = await appOn(proxy.url, {
      GOVERNANCE_RATE_LIMIT_PER_MINUTE: '3',
      EXPORT_RATE_LIMIT_PER_MINUTE: '2',
      POWER_RATE_LIMIT_PER_MINUTE: '2',
    })
    try {
      const open = (await createProposal(ada, { title: 'Rate limited' })).id
      const vote = await bogusVote(ben, open)
      // A client no other test is: on PostgreSQL the counts of every app on the database are one.
      const client = '203.0.113.1'
      const send = (remoteAddress = client) =>
        limited.inject({
          method: 'POST',
          url: `/api/proposals/${open}/votes`,
          headers: jsonHeaders,
          payload: JSON.stringify(vote),
          remoteAddress,
        })
      const from = proxy.calls.length
      const burst = []
      for (let i = 0; i < 5; i++) burst.push(await send())
      expect(burst.map((response) => response.statusCode)).toEqual([401, 401, 401, 429, 429])
      // One contract-account check per admitted request; none for the refused ones.
      expect(requestCalls(from)).toEqual(['eth_getCode', 'eth_getCode', 'eth_getCode'])
      const refused = burst[3]
      expect(refused?.json()).toEqual({ error: 'rate_limited', message: expect.stringMatching(/retry in/) })
      expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60)
      // Per client: another address still gets its answer.
      expect((await send('198.51.100.7')).statusCode).toBe(401)
      // The proposal's page is not limited.
      expect(
        (await limited.inject({ method: 'GET', url: `/api/proposals/${open}`, remoteAddress: client }))
          .statusCode,
      ).toBe(200)

      const proposalStatuses = []
      for (let i = 0; i < 4; i++) {
        const message = proposalMessage(ada, { title: `Burst ${i}` })
        const response = await limited.inject({
          method: 'POST',
          url: '/api/proposals',
          headers: jsonHeaders,
          payload: JSON.stringify({ message, signature: BOGUS_SIGNATURE }),
          remoteAddress: client,
        })
        proposalStatuses.push(response.statusCode)
      }
      expect(proposalStatuses).toEqual([401, 401, 401, 429])

      for (const url of [
        `/api/proposals/${open}/bundle`,
        '/api/governance/log',
        `/api/proposals/${open}/power/${ada.address}`,
      ]) {
        const statuses = []
        for (let i = 0; i < 3; i++)
          statuses.push((await limited.inject({ method: 'GET', url, remoteAddress: client })).statusCode)
        expect(statuses, url).toEqual([200, 200, 429])
      }
    } finally {
      await limited.close()
    }
  })

  test('behavior: X-Forwarded-For names the rate-limited client only when TRUST_PROXY names the peer it comes from (the load balancer)', async () => {
    const balancer = '203.0.113.20'
    const open = (await createProposal(ada, { title: 'Behind a proxy' })).id
    const powerStatuses = async (
      target: FastifyInstance,
      requests: { from: string; forwardedFor: string }[],
    ) => {
      const statuses = []
      for (const { from, forwardedFor } of requests) {
        const response = await target.inject({
          method: 'GET',
          url: `/api/proposals/${open}/power/${ada.address}`,
          headers: { 'x-forwarded-for': forwardedFor },
          remoteAddress: from,
        })
        statuses.push(response.statusCode)
      }
      return statuses
    }
    // Off (the default): a client changing the header each time is still counted by its own address.
    const direct = await appOn(proxy.url, { POWER_RATE_LIMIT_PER_MINUTE: '2' })
    try {
      const spoofing = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((forwardedFor) => ({
        from: '203.0.113.21',
        forwardedFor,
      }))
      expect(await powerStatuses(direct, spoofing)).toEqual([200, 200, 429])
    } finally {
      await direct.close()
    }
    // On: behind the balancer, each client its header names is counted apart; a peer not named is the client.
    const proxied = await appOn(proxy.url, {
      POWER_RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: `${balancer}/32`,
    })
    try {
      const viaBalancer = (forwardedFor: string) => ({ from: balancer, forwardedFor })
      expect(
        await powerStatuses(proxied, [
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.10'),
          viaBalancer('198.51.100.11'),
        ]),
      ).toEqual([200, 200, 429, 200])
      const notTheBalancer = ['198.51.100.12', '198.51.100.13', '198.51.100.14'].map((forwardedFor) => ({
        from: '203.0.113.22',
        forwardedFor,
      }))
      expect(await powerStatuses(proxied, notTheBalancer)).toEqual([200, 200, 429])
    } finally {
      await proxied.close()
    }
  })

  test('behavior: a bogus-signature vote on an unknown, pending or closed proposal, with invalid choices or out-of-window → refused with its 4xx and no chain call; the same vote on an open proposal reaches the chain', async () => {
    // This app's clock runs a day ahead: a proposal ending in 3 hours is closed for it.
    const later = await appOn(proxy.url, {}, () => new Date(Date.now() + DAY_MS))
    try {
      const now = nowSeconds()
      const open = (await createProposal(ada, { title: 'Open tomorrow', end: now + 2 * 24 * 3600 })).id
      const closed = (await createProposal(ada, { title: 'Closed tomorrow' })).id
      const pending = (
        await createProposal(ada, {
          title: 'Pending tomorrow',
          start: now + 2 * 24 * 3600,
          end: now + 3 * 24 * 3600,
        })
      ).id
      const unknown = `0x${'cd'.repeat(32)}` as Hex
      const cases: [string, Hex, { message: unknown; signature: Hex }, number, string][] = [
        ['an unknown proposal', unknown, await bogusVote(ben, unknown), 404, 'unknown_proposal'],
        ['a pending proposal', pending, await bogusVote(ben, pending), 422, 'not_open'],
        ['a closed proposal', closed, await bogusVote(ben, closed), 422, 'not_open'],
        ['a choice out of range', open, await bogusVote(ben, open, { choices: [4] }), 422, 'bad_choices'],
        [
          'two choices on a basic proposal',
          open,
          await bogusVote(ben, open, { choices: [1, 2] }),
          422,
          'bad_choices',
        ],
        [
          'a timestamp 7 days before the server clock',
          open,
          await bogusVote(ben, open, { timestamp: now - 6 * 24 * 3600 }),
          422,
          'bad_timestamp',
        ],
        ['choice 0', open, await bogusVote(ben, open, { choices: [0] }), 400, 'bad_request'],
      ]
      const post = (on: Hex, body: unknown) =>
        later.inject({
          method: 'POST',
          url: `/api/proposals/${on}/votes`,
          headers: jsonHeaders,
          payload: JSON.stringify(body),
        })
      for (const [name, on, body, status, error] of cases) {
        const from = proxy.calls.length
        // With the node unreachable, any chain call would turn the answer into a 503.
        proxy.down = true
        const response = await post(on, body).finally(() => {
          proxy.down = false
        })
        expect(response.statusCode, name).toBe(status)
        expect(response.json().error, name).toBe(error)
        expect(requestCalls(from), name).toEqual([])
      }
      expect(await votesOn(open)).toBe(0)

      // The control: a vote that passes every cheap check goes on to the signature, hence to the chain.
      const valid = await bogusVote(ben, open)
      proxy.down = true
      const unreachable = await post(open, valid).finally(() => {
        proxy.down = false
      })
      expect(unreachable.statusCode).toBe(503)
      expect(unreachable.json().error).toBe('chain_unavailable')
      const from = proxy.calls.length
      const refused = await post(open, valid)
      expect(refused.statusCode).toBe(401)
      expect(refused.json().error).toBe('bad_signature')
      expect(requestCalls(from)).toEqual(['eth_getCode'])
    } finally {
      await later.close()
    }
  })

  test('behavior: bogus-signature proposals with other rules, a start 10 years ahead or a stale timestamp → refused with no chain call, not even the head', async () => {
    const counted = await appOn(proxy.url)
    try {
      const now = nowSeconds()
      const cases: [string, Partial<ProposalMessage>, number, string][] = [
        ['other rules', { quorum: '1' }, 422, 'rules_mismatch'],
        [
          'a start 10 years ahead',
          { start: now + 3650 * 24 * 3600, end: now + 3650 * 24 * 3600 + 3600, timestamp: now },
          400,
          'bad_request',
        ],
        ['a timestamp 7 days old', { timestamp: now - 7 * 24 * 3600 }, 422, 'bad_timestamp'],
        ['an end before now', { start: now - 7200, end: now - 60, timestamp: now - 7200 }, 422, 'ended'],
      ]
      for (const [name, overrides, status, error] of cases) {
        const from = proxy.calls.length
        proxy.down = true
        const response = await counted
          .inject({
            method: 'POST',
            url: '/api/proposals',
            headers: jsonHeaders,
            payload: JSON.stringify({
              message: proposalMessage(ada, { title: name, ...overrides }),
              signature: BOGUS_SIGNATURE,
            }),
          })
          .finally(() => {
            proxy.down = false
          })
        expect(response.statusCode, name).toBe(status)
        expect(response.json().error, name).toBe(error)
        expect(requestCalls(from), name).toEqual([])
      }
    } finally {
      await counted.close()
    }
  })

  test('behavior: an ERC-6492 vote whose factory loops → 401, the node asked to run it with SIGNATURE_CHECK_GAS only', async () => {
    const counted = await appOn(proxy.url)
    try {
      const loopingFactory: Hex = '0x0000000000000000000000000000000000006493'
      // Bytecode that jumps to itself forever: it burns whatever gas the call is given.
      await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).setCode({
        address: loopingFactory,
        bytecode: '0x5b600056',
      })
      const open = (await createProposal(ada, { title: 'Counterfactual voter' })).id
      const message: VoteMessage = {
        voter: getAddress('0x00000000000000000000000000000000000064aa'),
        proposal: open,
        choices: [1],
        reason: '',
        timestamp: nowSeconds(),
      }
      const signature = serializeErc6492Signature({
        address: loopingFactory,
        data: '0xdeadbeef',
        signature: BOGUS_SIGNATURE,
      })
      const from = proxy.calls.length
      const response = await counted.inject({
        method: 'POST',
        url: `/api/proposals/${open}/votes`,
        headers: jsonHeaders,
        payload: JSON.stringify({ message, signature }),
      })
      expect(response.statusCode).toBe(401)
      expect(response.json().error).toBe('bad_signature')
      const calls = proxy.calls.slice(from).filter((call) => call.method === 'eth_call')
      expect(calls).toHaveLength(1)
      expect(calls[0]?.params[0]).toMatchObject({ gas: numberToHex(SIGNATURE_CHECK_GAS) })
      expect(await votesOn(open)).toBe(0)
    } finally {
      await counted.close()
    }
  })
})
