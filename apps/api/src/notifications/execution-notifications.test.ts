// Execution notifications (ADR 055) from a passed proposal carried out by the demo treasury Safe (real Safe
// contracts on anvil, the execution kit's bed; PGlite, or PostgreSQL under scripts/with-postgres.sh): each
// owner's signature is an `execution.signed` webhook, and the Safe's execution, once read, `execution.executed`.
import type { ProposalExecution } from '@guildhall/core'
import { getAddress, parseEther } from 'viem'
import { expect, test } from 'vitest'
import {
  ada,
  ben,
  database,
  ethTransfer,
  execute,
  get,
  now,
  passedProposal,
  post,
  signHash,
  useExecutionBed,
} from '../../testbed/beds/execution.ts'
import { ORIGIN } from '../../testbed/test-app.ts'
import { useWebhookReceiver, webhookJobFor } from '../../testbed/webhook-receiver.ts'
import type { WebhookPayload } from './webhook-request.ts'

useExecutionBed()
const hooks = useWebhookReceiver()

test('each owner’s signature of a queued Safe transaction is an execution.signed webhook, and its execution by the Safe execution.executed, each once', async () => {
  // The bed's clock, which its proposals move past their end and the objection delay.
  const job = webhookJobFor(
    database.db,
    {
      name: 'safe',
      url: hooks.receiver.url,
      secret: hooks.secret,
      events: ['execution.signed', 'execution.executed'],
    },
    () => new Date(now() * 1000),
  )
  const recipient = getAddress(`0x${'be'.repeat(20)}`)
  const id = await passedProposal([ethTransfer(recipient, parseEther('0.25'))], { title: 'Pay the gardener' })
  const queued = await post(`/api/proposals/${id}/execution/queue`, {})
  expect(queued.statusCode, queued.body).toBe(201)
  const entry = (queued.json() as ProposalExecution).queued
  if (!entry) throw new Error('not queued')
  const confirmations = []
  for (const owner of [ada, ben]) {
    const signature = await signHash(owner, entry.safeTxHash)
    const signed = await post(`/api/proposals/${id}/execution/signatures`, {
      owner: owner.address,
      safeTxHash: entry.safeTxHash,
      signature,
    })
    expect(signed.statusCode, signed.body).toBe(201)
    confirmations.push({ owner: owner.address, signature })
  }
  await job.pass()
  await hooks.receiver.until((received) => received.length === 2)

  const receipt = await execute(entry.transaction, confirmations)
  expect(receipt.status).toBe('success')
  // The outcome is read from the Safe when the proposal's execution is read.
  const read = await get(`/api/proposals/${id}/execution`)
  expect((read.json() as ProposalExecution).state).toBe('executed')
  await job.pass()
  await hooks.receiver.until((received) => received.length === 3)
  await job.pass()

  // Signed at the bed's clock, an hour and more ahead of the real one: the signature is checked elsewhere
  // (webhooks.test.ts), a receiver's 5-minute window would refuse these.
  const payloads = hooks.receiver.received.map((request) => JSON.parse(request.body) as WebhookPayload)
  expect(payloads.map((p) => [p.type, p.data.owner ?? null])).toEqual([
    ['execution.signed', ada.address],
    ['execution.signed', ben.address],
    ['execution.executed', null],
  ])
  for (const payload of payloads)
    expect(payload.data).toMatchObject({
      proposalId: id,
      safeTxHash: entry.safeTxHash,
      title: 'Pay the gardener',
      url: `${ORIGIN}/proposals/${id}`,
    })
  expect(payloads[2]?.data.transaction).toBe(receipt.transactionHash)
  expect(hooks.receiver.received.map((r) => r.headers['webhook-id'])).toEqual([
    expect.stringMatching(/^\d+:execution\.signed$/),
    expect.stringMatching(/^\d+:execution\.signed$/),
    `${entry.safeTxHash}:execution.executed`,
  ])
}, 120_000)
