// The recount (packages/core/src/recount.ts, `npm run recount`) of the newer kinds' bundles as the API
// writes them (ADR 058, 059): ranked-choice rounds compared one by one with a sentence per difference,
// weights under their signature, tally version 1 bundles of the older kinds; against a real chain (anvil
// with the demo DAO) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { ProposalKind } from '@guildhall/core'
import { recount, resultBundleSchema } from '@guildhall/core/recount'
import { createPublicClient, type Hex, http } from 'viem'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  ben,
  cleo,
  createProposal,
  postVote,
  signedVote,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'

useGovernanceBed()

const chain = () => createPublicClient({ transport: http(anvil.url) })
const bundleOf = async (id: Hex) =>
  resultBundleSchema.parse((await app.inject({ method: 'GET', url: `/api/proposals/${id}/bundle` })).json())
type Bundle = Awaited<ReturnType<typeof bundleOf>>
const recountOf = (bundle: Bundle) => recount([JSON.stringify(bundle)], chain())

async function created(kind: ProposalKind, choices: string[]) {
  const made = await createProposal(ada, { kind, choices, title: `Recounted ${kind}` })
  expect(made.response.statusCode, JSON.stringify(made.response.json())).toBe(201)
  return made.id
}

const TOKENS = 10n ** 18n
const FOUR = ['Oak', 'Ash', 'Elm', 'Yew']

describe('recount of a ranked-choice bundle', () => {
  let ranked: Hex
  beforeAll(async () => {
    ranked = await created('ranked-choice', FOUR)
    // Ada 1,250 Oak first, Ben 850 Ash, Cleo 500 Elm then Ash: Yew goes, then Elm, and Ash wins 1,350 to 1,250.
    await postVote(`/api/proposals/${ranked}/votes`, await signedVote(ada, ranked, { choices: [1, 2, 3, 4] }))
    await postVote(`/api/proposals/${ranked}/votes`, await signedVote(ben, ranked, { choices: [2, 3, 1, 4] }))
    await postVote(
      `/api/proposals/${ranked}/votes`,
      await signedVote(cleo, ranked, { choices: [3, 2, 1, 4] }),
    )
    // The page's read settles the rounds (ADR 060); the bundle stops at them.
    await app.inject({ method: 'GET', url: `/api/proposals/${ranked}` })
  })

  test('behavior: the untouched bundle matches, rounds included', async () => {
    const bundle = await bundleOf(ranked)
    expect(bundle.tally.rounds).toHaveLength(3)
    const report = await recountOf(bundle)
    expect(report).toMatchObject({ matches: true, differences: [], votesCounted: 3 })
    expect(report.tally.rounds?.map((round) => round.eliminated)).toEqual([[4], [3], []])
    expect(report.tally.rounds?.at(-1)?.perChoice).toEqual([1250n * TOKENS, 1350n * TOKENS, null, null])
  })

  test('behavior: published rounds that differ from the recount are named, a sentence per difference', async () => {
    const bundle = await bundleOf(ranked)
    const rounds = bundle.tally.rounds ?? []
    const [first, second, third] = rounds
    if (!first || !second || !third) throw new Error('three rounds expected')
    const altered: Bundle = {
      ...bundle,
      tally: {
        ...bundle.tally,
        leading: [1],
        rounds: [
          { ...first, continuing: '5' },
          { ...second, perChoice: [...second.perChoice.slice(0, 3), '0'], eliminated: [4] },
          { ...third, perChoice: [third.perChoice[0] ?? null, '1', null, null] },
        ],
      },
    }
    const report = await recountOf(altered)
    expect(report.matches).toBe(false)
    expect(report.differences).toEqual([
      'Leading: recounted "Ash", published "Oak".',
      'Round 1, continuing power: recounted 2600000000000000000000, published 5.',
      'Round 2, "Yew": recounted eliminated, published 0.',
      'Round 2, eliminated: recounted "Elm", published "Yew".',
      'Round 3, "Ash": recounted 1350000000000000000000, published 1.',
    ])
  })

  test('behavior: a missing round, or no rounds at all, is named', async () => {
    const bundle = await bundleOf(ranked)
    const short = await recountOf({
      ...bundle,
      tally: { ...bundle.tally, rounds: bundle.tally.rounds?.slice(0, 2) },
    })
    expect(short.differences).toEqual(['Rounds: recounted 3, published 2.'])
    const { rounds: _, ...withoutRounds } = bundle.tally
    const none = await recountOf({ ...bundle, tally: withoutRounds })
    expect(none.differences).toEqual(['The published result of this ranked-choice proposal has no rounds.'])
  })

  test('behavior: `npm run recount -- <bundle.json> --rpc <url>` on a ranked bundle prints every round and "matches"; altered, it lists the differences and exits 1', async () => {
    const bundle = await bundleOf(ranked)
    const folder = await mkdtemp(join(tmpdir(), 'guildhall-recount-'))
    try {
      const file = join(folder, 'ranked.json')
      await writeFile(file, JSON.stringify(bundle))
      const run = (path: string) =>
        promisify(execFile)('npx', ['tsx', 'scripts/recount.ts', path, '--rpc', anvil.url], {
          cwd: new URL('../../../../', import.meta.url).pathname,
          encoding: 'utf8',
          timeout: 60_000,
        })
      // execFile rejects on a non-zero exit code, so reaching the next line means exit code 0.
      const { stdout } = await run(file)
      expect(stdout).toContain(
        '  round 1: Oak 1250000000000000000000, Ash 850000000000000000000, Elm 500000000000000000000, Yew 0; eliminated: Yew',
      )
      expect(stdout).toContain('  round 3: Oak 1250000000000000000000, Ash 1350000000000000000000\n')
      expect(stdout).toContain('The result matches: 3 signatures checked, 3 votes counted.')

      const altered = join(folder, 'altered.json')
      await writeFile(
        altered,
        JSON.stringify({ ...bundle, tally: { ...bundle.tally, rounds: bundle.tally.rounds?.slice(0, 1) } }),
      )
      const failed = await run(altered).then(
        () => undefined,
        (error: { code?: number; stdout?: string }) => error,
      )
      expect(failed?.code).toBe(1)
      expect(failed?.stdout).toContain('The result DIFFERS (1):\n  - Rounds: recounted 3, published 1.')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }, 140_000)
})

describe('recount of weighted votes', () => {
  let weighted: Hex
  beforeAll(async () => {
    weighted = await created('weighted', ['Roof', 'Road', 'Well'])
    await postVote(
      `/api/proposals/${weighted}/votes`,
      await signedVote(ada, weighted, { version: 2, choices: [1, 3], weights: [3, 1] }),
    )
  })

  test('behavior: the weights are counted as signed: Ada’s 1,250 by 3 : 1 recounts to 937.5 and 312.5', async () => {
    const report = await recountOf(await bundleOf(weighted))
    expect(report).toMatchObject({ matches: true, differences: [] })
    expect(report.tally.perChoice).toEqual([9375n * 10n ** 17n, 0n, 3125n * 10n ** 17n])
  })

  test('behavior: weights changed after signing no longer match the vote’s id; a version 1 vote slipped in is not allowed', async () => {
    const bundle = await bundleOf(weighted)
    const [signed] = bundle.votes
    if (signed?.message.version !== 2) throw new Error('a version 2 vote expected')
    const changed = { ...signed, message: { ...signed.message, weights: [1, 3] } }
    const slipped = await signedVote(ben, weighted, { choices: [2] })
    const report = await recountOf({ ...bundle, voteCount: 2, votes: [changed, slipped] })
    const label = (id: string, voter: string) => `Vote ${id.slice(0, 10)}… by ${voter}`
    expect(report.differences).toEqual(
      expect.arrayContaining([
        `${label(signed.id, ada.address)} does not match its id: its choices, weights, reason or time were changed after signing.`,
        `${label(slipped.id, ben.address)} was counted though it is not allowed: This proposal splits your voting power by weights: sign a version 2 vote with one weight for each choice you pick.`,
      ]),
    )
    expect(report.votesCounted).toBe(0)
  })
})

describe('tally versions', () => {
  test('behavior: a tally version 1 bundle of a basic proposal recounts as matching; of a ranked proposal, or of version 3, the version is named', async () => {
    const basic = (await createProposal(ada, { title: 'Recounted basic, version 1' })).id
    await postVote(`/api/proposals/${basic}/votes`, await signedVote(ben, basic, { choices: [1] }))
    const basicBundle = await bundleOf(basic)
    expect(await recountOf({ ...basicBundle, tallyVersion: 1 })).toMatchObject({
      matches: true,
      differences: [],
    })
    expect((await recountOf({ ...basicBundle, tallyVersion: 3 })).differences).toEqual([
      'The result was counted with tally version 3; this recount uses 2.',
    ])
    const ranked = await created('ranked-choice', ['Oak', 'Ash'])
    await postVote(`/api/proposals/${ranked}/votes`, await signedVote(ben, ranked, { choices: [2, 1] }))
    await app.inject({ method: 'GET', url: `/api/proposals/${ranked}` })
    expect((await recountOf({ ...(await bundleOf(ranked)), tallyVersion: 1 })).differences).toEqual([
      'The result was counted with tally version 1; this recount uses 2.',
    ])
  })
})
