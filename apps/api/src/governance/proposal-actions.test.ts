// Version 2 proposals over HTTP (ADR 048): a category from PROPOSAL_CATEGORIES and actions for the treasury
// Safe (TREASURY_SAFE), each refusal a precise 400 with nothing stored, and version 1 read exactly as
// before; against a real chain (anvil with the demo DAO and its Safes) and a real database (PGlite, or
// PostgreSQL under scripts/with-postgres.sh), the setup the governance bed's.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import {
  erc20ActionAbi,
  GOVERNANCE_LIMITS,
  type ProposalAction,
  type ProposalMessageV2,
  proposalDetailSchema,
  proposalListSchema,
  safeSettingsAbi,
} from '@guildhall/core'
import { recount, resultBundleSchema } from '@guildhall/core/recount'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import {
  createPublicClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  maxUint256,
  type PrivateKeyAccount,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  appOn,
  ben,
  database,
  deployment,
  domain,
  rowsOf,
  safes,
  snapshot,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'
import { type ProposalFields, signProposal, signVote } from '../../testbed/signers.ts'
import { postJson } from '../../testbed/test-app.ts'
import { governanceLog, proposals } from '../platform/db/schema.ts'

useGovernanceBed()

/** The bed's app has no treasury; this one has the 2-of-3 demo Safe as its treasury. */
let treasuryApp: FastifyInstance
/** A treasury app whose DAO names its own categories, and one whose DAO names none. */
let payrollApp: FastifyInstance
let uncategorisedApp: FastifyInstance
let safe: Hex
beforeAll(async () => {
  safe = safes.twoOfThree.address
  treasuryApp = await appOn(anvil.url, { TREASURY_SAFE: safe })
  payrollApp = await appOn(anvil.url, { TREASURY_SAFE: safe, PROPOSAL_CATEGORIES: 'Payroll, Events' })
  uncategorisedApp = await appOn(anvil.url, { PROPOSAL_CATEGORIES: '' })
}, 60_000)
afterAll(async () => {
  await treasuryApp?.close()
  await payrollApp?.close()
  await uncategorisedApp?.close()
})

/** The demo token, checksummed as a signed action names it. */
const token = () => getAddress(deployment.token)
const payment = (): ProposalAction => ({ target: ben.address, value: '1000000000000000', data: '0x' })
const tokenTransfer = (): ProposalAction => ({
  target: token(),
  value: '0',
  data: encodeFunctionData({ abi: erc20ActionAbi, functionName: 'transfer', args: [ben.address, 5n] }),
})
const addOwner = (): ProposalAction => ({
  target: safe,
  value: '0',
  data: encodeFunctionData({
    abi: safeSettingsAbi,
    functionName: 'addOwnerWithThreshold',
    args: [ben.address, 2n],
  }),
})

/** Signs a proposal by `author` with `fields` and posts it to `to`; the answer, the message and its id. */
async function submit(
  to: FastifyInstance,
  fields: Omit<ProposalFields, 'snapshot'>,
  author: PrivateKeyAccount = ada,
) {
  const { message, signature, id } = await signProposal(author, domain, { snapshot, ...fields })
  const response = await postJson(to, '/api/proposals', { message, signature })
  return { response, message, id }
}

const detailOf = async (to: FastifyInstance, id: Hex) =>
  proposalDetailSchema.parse((await to.inject({ method: 'GET', url: `/api/proposals/${id}` })).json())
const stored = (id: Hex) => database.db.select().from(proposals).where(eq(proposals.id, id))

/** `send` is refused with exactly `status` and `body`, and neither a proposal nor a log entry is written. */
async function expectRefused(
  send: () => Promise<{ response: { statusCode: number; json: () => unknown } }>,
  status: number,
  body: { error: string; message: string | RegExp },
) {
  const before = [await rowsOf(proposals), await rowsOf(governanceLog)]
  const { response } = await send()
  expect(response.statusCode).toBe(status)
  const answer = response.json() as { error: string; message: string }
  expect(answer.error).toBe(body.error)
  if (typeof body.message === 'string') expect(answer.message).toBe(body.message)
  else expect(answer.message).toMatch(body.message)
  expect([await rowsOf(proposals), await rowsOf(governanceLog)]).toEqual(before)
}

describe('version 2 proposals: category and actions', () => {
  test('behavior: a proposal with a category, an ETH payment and a token transfer → 201; stored as signed; its page shows the actions decoded and the list its category', async () => {
    const { response, message, id } = await submit(treasuryApp, {
      title: 'Pay the roofer',
      category: 'Operations',
      actions: [payment(), tokenTransfer()],
    })
    expect(response.json()).toEqual({ id })
    expect(response.statusCode).toBe(201)
    const [row] = await stored(id)
    // The signed JSON itself is what is kept (jsonb: its fields, not their order): the recount and the
    // execution read the actions from it.
    expect(row?.message).toStrictEqual(message)

    const detail = await detailOf(treasuryApp, id)
    expect(detail).toMatchObject({
      id,
      category: 'Operations',
      changesSafeSettings: false,
      actionWarnings: [],
    })
    expect(detail.message).toEqual(message)
    expect(detail.actions).toEqual([
      {
        ...payment(),
        decoded: {
          kind: 'eth-transfer',
          target: ben.address,
          value: '1000000000000000',
          selector: null,
          functionName: null,
          args: null,
          token: null,
          counterparty: ben.address,
          amount: '1000000000000000',
        },
      },
      {
        ...tokenTransfer(),
        decoded: {
          kind: 'erc20-transfer',
          target: token(),
          value: '0',
          selector: '0xa9059cbb',
          functionName: 'transfer',
          args: [ben.address, '5'],
          token: null,
          counterparty: ben.address,
          amount: '5',
        },
      },
    ])
    const list = proposalListSchema.parse(
      (await treasuryApp.inject({ method: 'GET', url: '/api/proposals?state=active' })).json(),
    )
    expect(list.proposals.find((item) => item.id === id)?.category).toBe('Operations')
  })

  test('behavior: a version 1 proposal is accepted and read exactly as before: no version field, no category, no actions', async () => {
    const { response, message, id } = await submit(treasuryApp, { title: 'Plain old proposal' })
    expect(response.statusCode).toBe(201)
    expect(message).not.toHaveProperty('version')
    const [row] = await stored(id)
    expect(row?.message).toStrictEqual(message)
    const raw = (await treasuryApp.inject({ method: 'GET', url: `/api/proposals/${id}` })).json()
    expect(raw.message).toStrictEqual(message)
    expect(raw).toMatchObject({ category: '', actions: [], changesSafeSettings: false, actionWarnings: [] })
    // On the app without a treasury too: a version 1 proposal needs none.
    const plain = await detailOf(app, id)
    expect(plain.message).toEqual(message)
  })

  test('behavior: a settings change with the signed flag → 201, shown with its plain warning; an unlimited approval is warned too', async () => {
    const approve: ProposalAction = {
      target: token(),
      value: '0',
      data: encodeFunctionData({
        abi: erc20ActionAbi,
        functionName: 'approve',
        args: [ben.address, maxUint256],
      }),
    }
    const { response, id } = await submit(treasuryApp, {
      title: 'Add Ben as a signer',
      category: 'Security',
      changesSafeSettings: true,
      actions: [addOwner(), approve],
    })
    expect(response.statusCode).toBe(201)
    const detail = await detailOf(treasuryApp, id)
    expect(detail.actions.map((action) => action.decoded.kind)).toEqual(['safe-settings', 'erc20-approve'])
    expect(detail.actionWarnings).toEqual([
      {
        index: 0,
        message:
          "Action 1 changes the Safe's own settings (addOwnerWithThreshold): who owns the treasury, how many must sign, or what else may move its funds.",
      },
      {
        index: 1,
        message: `Action 2 approves ${ben.address} to spend an unlimited amount of the token at ${token()}, now and later.`,
      },
    ])
  })

  test("behavior: a category not in PROPOSAL_CATEGORIES (or any, where it is empty) → 400 bad_category naming the DAO's categories, nothing stored", async () => {
    await expectRefused(() => submit(treasuryApp, { title: 'Party', category: 'Parties' }), 400, {
      error: 'bad_category',
      message: 'The category "Parties" is not one of this DAO\'s: Grants, Operations, Security (or none).',
    })
    // Another DAO's list: its own categories are taken, the default ones are not.
    await expectRefused(() => submit(payrollApp, { title: 'Grant', category: 'Grants' }), 400, {
      error: 'bad_category',
      message: 'The category "Grants" is not one of this DAO\'s: Payroll, Events (or none).',
    })
    expect((await submit(payrollApp, { title: 'Salaries', category: 'Payroll' })).response.statusCode).toBe(
      201,
    )
    // A DAO without categories: a proposal names none.
    await expectRefused(() => submit(uncategorisedApp, { title: 'Grant', category: 'Grants' }), 400, {
      error: 'bad_category',
      message: 'This DAO has no proposal categories, so a proposal names none; this one names "Grants".',
    })
    expect((await submit(uncategorisedApp, { title: 'No category', category: '' })).response.statusCode).toBe(
      201,
    )
  })

  test('behavior: actions on a proposal that is not basic → 400 naming the field, nothing stored', async () => {
    await expectRefused(
      () =>
        submit(treasuryApp, {
          title: 'Pick a roofer and pay',
          kind: 'single-choice',
          choices: ['Roofer A', 'Roofer B'],
          actions: [payment()],
        }),
      400,
      {
        error: 'bad_request',
        message:
          'Invalid proposal:\n- message.actions: Only a basic proposal (For, Against, Abstain) may carry actions: its result says whether to make them',
      },
    )
  })

  test('behavior: a call to the treasury Safe without the settings flag → 400 bad_actions; the flag without such a call → 400 bad_actions', async () => {
    await expectRefused(
      () => submit(treasuryApp, { title: 'Sneaky owner', actions: [payment(), addOwner()] }),
      400,
      {
        error: 'bad_actions',
        message:
          "Action 2 calls the treasury Safe itself, which changes its settings; only a proposal marked as changing the Safe's settings may do that.",
      },
    )
    await expectRefused(
      () => submit(treasuryApp, { title: 'Scary flag', changesSafeSettings: true, actions: [payment()] }),
      400,
      {
        error: 'bad_actions',
        message: `This proposal is marked as changing the Safe's settings, but none of its actions calls the treasury Safe ${safe}.`,
      },
    )
  })

  test('behavior: actions where no treasury is configured → 400 no_treasury; a category alone needs none', async () => {
    await expectRefused(() => submit(app, { title: 'Pay from nowhere', actions: [payment()] }), 400, {
      error: 'no_treasury',
      message: 'This DAO has no treasury Safe (TREASURY_SAFE), so a proposal cannot carry actions.',
    })
    const { response, id } = await submit(app, { title: 'Just a grant', category: 'Grants' })
    expect(response.statusCode).toBe(201)
    expect(await detailOf(app, id)).toMatchObject({ category: 'Grants', actions: [] })
  })

  test('boundary: the largest proposal (the longest body, 16 actions of 4096 bytes of data each) → 201, not 413', async () => {
    const data = `0x${'ab'.repeat(GOVERNANCE_LIMITS.actionDataMaxBytes)}` as Hex
    const { response } = await submit(treasuryApp, {
      title: 'Largest',
      // 4-byte characters: the body's largest UTF-8 form.
      body: '😀'.repeat(GOVERNANCE_LIMITS.bodyMax / 2),
      actions: Array.from({ length: GOVERNANCE_LIMITS.actionsMax }, () => ({
        target: ben.address,
        value: '0',
        data,
      })),
    })
    expect(response.statusCode).toBe(201)
  })

  test('behavior: malformed actions (the zero address, an operation field, too many) → 400 naming the field, never a 500', async () => {
    const signature = `0x${'11'.repeat(65)}`
    const base = (await signProposal(ada, domain, { snapshot, actions: [payment()] })).message
    const cases: [unknown, RegExp][] = [
      [
        { ...base, actions: [{ ...payment(), target: '0x0000000000000000000000000000000000000000' }] },
        /message\.actions\.0\.target: The target must not be the zero address/,
      ],
      [
        { ...base, actions: [{ ...payment(), operation: 1 }] },
        /message\.actions\.0: Unrecognized key: "operation"/,
      ],
      [
        { ...base, actions: Array.from({ length: 17 }, payment) },
        /message\.actions: A proposal carries at most 16 actions/,
      ],
      [{ ...base, version: 3 }, /message\.version: The version must be 1 \(or absent\) or 2/],
    ]
    for (const [message, text] of cases) {
      const before = await rowsOf(proposals)
      const response = await postJson(treasuryApp, '/api/proposals', { message, signature })
      expect(response.statusCode).toBe(400)
      expect(response.json().error).toBe('bad_request')
      expect(response.json().message).toMatch(text)
      expect(await rowsOf(proposals)).toBe(before)
    }
  })
})

describe('recount of a version 2 proposal', () => {
  let proposal: Hex
  beforeAll(async () => {
    const created = await submit(treasuryApp, {
      title: 'Recount the payout',
      category: 'Grants',
      actions: [payment(), tokenTransfer()],
    })
    proposal = created.id
    const vote = await signVote(ben, domain, { proposal, choices: [1] })
    const voted = await postJson(treasuryApp, `/api/proposals/${proposal}/votes`, {
      message: vote.message,
      signature: vote.signature,
    })
    expect(voted.statusCode).toBe(201)
  })
  const bundleOf = async () =>
    resultBundleSchema.parse(
      (await treasuryApp.inject({ method: 'GET', url: `/api/proposals/${proposal}/bundle` })).json(),
    )
  const chain = () => createPublicClient({ transport: http(anvil.url) })

  test("behavior: the recount verifies the author's signature under the version 2 types and matches", async () => {
    const bundle = await bundleOf()
    expect(bundle.proposal.message).toMatchObject({ version: 2, category: 'Grants' })
    expect(await recount([JSON.stringify(bundle)], chain())).toMatchObject({
      matches: true,
      differences: [],
      votesCounted: 1,
    })
  })

  test('behavior: an action, the category or the settings flag changed in the bundle, or the version 2 fields dropped → "does not match its id"', async () => {
    const bundle = await bundleOf()
    const message = bundle.proposal.message as ProposalMessageV2
    const { version: _, category: __, changesSafeSettings: ___, actions: ____, ...asV1 } = message
    for (const altered of [
      { ...message, actions: [{ ...payment(), value: '2000000000000000' }, tokenTransfer()] },
      { ...message, actions: [tokenTransfer(), payment()] },
      { ...message, category: 'Security' },
      { ...message, changesSafeSettings: true, actions: [...message.actions, addOwner()] },
      asV1,
    ]) {
      const report = await recount(
        [JSON.stringify({ ...bundle, proposal: { ...bundle.proposal, message: altered } })],
        chain(),
      )
      expect(report.matches).toBe(false)
      expect(report.differences).toContain(
        'The proposal does not match its id: its text or rules were changed after signing.',
      )
    }
  })

  test('behavior: `npm run recount -- <proposal URL> --rpc <url>` recounts a version 2 proposal and prints "matches"', async () => {
    const url = await treasuryApp.listen({ port: 0, host: '127.0.0.1' })
    // Asynchronously: this process serves the bundle the CLI asks for.
    const { stdout } = await promisify(execFile)(
      'npx',
      ['tsx', 'scripts/recount.ts', `${url}/proposals/${proposal}`, '--rpc', anvil.url],
      { cwd: new URL('../../../../', import.meta.url).pathname, encoding: 'utf8', timeout: 60_000 },
    )
    expect(stdout).toContain('The result matches: 1 signatures checked, 1 votes counted.')
  }, 70_000)
})
