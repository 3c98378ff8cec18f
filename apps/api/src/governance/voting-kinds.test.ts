// The voting kinds of issue 25 over HTTP (ADR 058–060): proposals of each kind, their ballots refused or
// counted, ranked-choice rounds settled from the stored ballots and kept in one row, the result everywhere it
// is read (detail, list, votes list, live stream, bundle, `tallies:check`), against a real chain (anvil with
// the demo DAO) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh); the setup is the
// kit's governance bed (testbed/beds/governance.ts).
import {
  liveTallySchema,
  type ProposalKind,
  proposalListSchema,
  type TallyJson,
  tallyToJson,
  voteListSchema,
} from '@guildhall/core'
import { recount, resultBundleSchema } from '@guildhall/core/recount'
import { count, eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { createPublicClient, type Hex, http, type PrivateKeyAccount } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  appOn,
  ben,
  cleo,
  createProposal,
  database,
  domain,
  rowsOf,
  signedVote,
  snapshot,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'
import { openStream } from '../../testbed/event-stream.ts'
import { nowSeconds, signProposal } from '../../testbed/signers.ts'
import { postJson } from '../../testbed/test-app.ts'
import { backend } from '../platform/db/client-test-helpers.ts'
import {
  ballots,
  governanceLog,
  proposals,
  proposalTallies,
  rankedResults,
  votes,
} from '../platform/db/schema.ts'
import { claimSettle, RESETTLE_INTERVAL_MS, settleRankedResult, storeRankedResult } from './ranked-results.ts'
import { tallyRules } from './tallies.ts'
import { checkTallies } from './tally-check.ts'

useGovernanceBed()

const FOUR = ['Oak', 'Ash', 'Elm', 'Yew']
const THREE = ['Oak', 'Ash', 'Elm']
const chain = () => createPublicClient({ transport: http(anvil.url) })
const detail = async (on: FastifyInstance, id: Hex) =>
  (await on.inject({ method: 'GET', url: `/api/proposals/${id}` })).json() as {
    tally: TallyJson
    kind: string
  }
const bundleOf = async (on: FastifyInstance, id: Hex) =>
  resultBundleSchema.parse((await on.inject({ method: 'GET', url: `/api/proposals/${id}/bundle` })).json())

/** A signed vote on `proposal` posted to the bed's app; `fields` are the vote's (version 2 with `weights`). */
async function vote(
  voter: PrivateKeyAccount,
  proposal: Hex,
  fields: { choices: number[]; weights?: number[]; timestamp?: number },
  on: FastifyInstance = app,
) {
  const { weights, ...rest } = fields
  const signed = await signedVote(
    voter,
    proposal,
    weights === undefined ? rest : { version: 2, weights, reason: '', ...rest },
  )
  const response = await postJson(on, `/api/proposals/${proposal}/votes`, {
    message: signed.message,
    signature: signed.signature,
  })
  return { response, signed }
}

async function created(kind: ProposalKind, choices: string[], title = `A ${kind} proposal`) {
  const made = await createProposal(ada, { kind, choices, title })
  expect(made.response.statusCode, JSON.stringify(made.response.json())).toBe(201)
  return made.id
}

/** What a refused ballot must not write: votes, ballots, log entries, and the proposal's tally row. */
async function written(proposal: Hex) {
  const [tally] = await database.db
    .select()
    .from(proposalTallies)
    .where(eq(proposalTallies.proposalId, proposal))
  const [ranked] = await database.db.select({ n: count() }).from(rankedResults)
  return {
    votes: await rowsOf(votes),
    ballots: await rowsOf(ballots),
    log: await rowsOf(governanceLog),
    ranked: ranked?.n,
    tally,
  }
}

describe('proposals of each kind', () => {
  test('behavior: QUADRATIC_VOTING off (default) → a quadratic proposal is 422 quadratic_disabled saying the operator has not enabled it, nothing stored; on → 201', async () => {
    const before = { votes: await rowsOf(votes), log: await rowsOf(governanceLog) }
    const refused = await createProposal(ada, { kind: 'quadratic', choices: THREE, title: 'Quadratic off' })
    expect(refused.response.statusCode).toBe(422)
    expect(refused.response.json()).toEqual({
      error: 'quadratic_disabled',
      message:
        'Quadratic voting is not enabled on this server: the operator has not turned it on (QUADRATIC_VOTING), as it is not sybil-resistant.',
    })
    expect({ votes: await rowsOf(votes), log: await rowsOf(governanceLog) }).toEqual(before)
    expect((await app.inject({ method: 'GET', url: `/api/proposals/${refused.id}` })).statusCode).toBe(404)

    const enabled = await appOn(anvil.url, { QUADRATIC_VOTING: 'on' })
    try {
      const { message, signature } = await signProposal(ada, domain, {
        snapshot,
        kind: 'quadratic',
        choices: THREE,
        title: 'Quadratic on',
      })
      const accepted = await postJson(enabled, '/api/proposals', { message, signature })
      expect(accepted.statusCode).toBe(201)
      expect((await detail(enabled, accepted.json().id)).kind).toBe('quadratic')
    } finally {
      await enabled.close()
    }
  })

  test('behavior: ranked-choice and weighted proposals are accepted, their kind read back', async () => {
    for (const kind of ['ranked-choice', 'weighted'] as const) {
      const id = await created(kind, FOUR)
      expect((await detail(app, id)).kind).toBe(kind)
    }
  })
})

describe('ballots refused, precisely, with nothing written', () => {
  let ranked: Hex
  let weighted: Hex
  let single: Hex
  beforeAll(async () => {
    ranked = await created('ranked-choice', FOUR, 'Refusals, ranked')
    weighted = await created('weighted', THREE, 'Refusals, weighted')
    single = await created('single-choice', THREE, 'Refusals, single choice')
  })

  const cases: [string, () => Hex, { choices: number[]; weights?: number[] }, number, string][] = [
    [
      'a partial ranking',
      () => ranked,
      { choices: [2, 1] },
      422,
      'Rank every choice: this proposal has 4 choices and your ballot ranks 2',
    ],
    ['a choice ranked twice', () => ranked, { choices: [1, 2, 2, 3] }, 400, 'Each choice may be picked once'],
    [
      'an out-of-range choice in a ranking',
      () => ranked,
      { choices: [1, 2, 3, 5] },
      422,
      'Choice 5 does not exist: this proposal has choices 1 to 4',
    ],
    [
      'a zero weight',
      () => weighted,
      { choices: [1, 2], weights: [0, 3] },
      400,
      'Each weight must be at least 1; leave a choice out to give it nothing',
    ],
    [
      'weights on a single-choice proposal',
      () => single,
      { choices: [1], weights: [5] },
      422,
      'This proposal does not take weights: only weighted and quadratic proposals do',
    ],
    [
      'weights on a ranked-choice proposal',
      () => ranked,
      { choices: [1, 2, 3, 4], weights: [1, 1, 1, 1] },
      422,
      'This proposal does not take weights: only weighted and quadratic proposals do',
    ],
    [
      'a version 1 vote on a weighted proposal',
      () => weighted,
      { choices: [1] },
      422,
      'This proposal splits your voting power by weights: sign a version 2 vote with one weight for each choice you pick',
    ],
    [
      'fewer weights than choices',
      () => weighted,
      { choices: [1, 2], weights: [3] },
      422,
      'Give one weight for each choice you pick: 2 choices and 1 weights',
    ],
    [
      'an out-of-range choice with its weight',
      () => weighted,
      { choices: [1, 4], weights: [1, 1] },
      422,
      'Choice 4 does not exist: this proposal has choices 1 to 3',
    ],
  ]

  test.each(cases)(
    'parameters: %s → its status, code and sentence; no vote, ballot, log entry or tally change',
    async (_name, proposal, fields, status, sentence) => {
      const before = await written(proposal())
      const { response } = await vote(ben, proposal(), fields)
      expect(response.statusCode).toBe(status)
      const body = response.json()
      if (status === 422) expect(body).toEqual({ error: 'bad_choices', message: sentence })
      else {
        expect(body.error).toBe('bad_request')
        expect(body.message).toContain(sentence)
      }
      expect(await written(proposal())).toEqual(before)
    },
  )
})

describe('valid ballots of each kind, and their results', () => {
  test('behavior: every kind takes its ballots (version 2 on every kind, weights [] where none are taken); the detail, the bundle and the list agree, and the bundle recounts (core recount) to the published result', async () => {
    const enabled = await appOn(anvil.url, { QUADRATIC_VOTING: 'on' })
    try {
      const ballotsOf: Record<
        ProposalKind,
        [PrivateKeyAccount, { choices: number[]; weights?: number[] }][]
      > = {
        basic: [
          [ada, { choices: [1] }],
          [ben, { choices: [2], weights: [] }],
        ],
        'single-choice': [
          [ada, { choices: [3] }],
          [ben, { choices: [1], weights: [] }],
        ],
        approval: [
          [ada, { choices: [1, 3] }],
          [cleo, { choices: [3] }],
        ],
        'ranked-choice': [
          [ada, { choices: [1, 2, 3] }],
          [ben, { choices: [2, 3, 1], weights: [] }],
          [cleo, { choices: [3, 2, 1] }],
        ],
        weighted: [
          [ada, { choices: [1, 2], weights: [3, 1] }],
          [ben, { choices: [2], weights: [7] }],
          [cleo, { choices: [1, 2, 3], weights: [1, 1, 1] }],
        ],
        quadratic: [
          [ada, { choices: [1, 2], weights: [1, 1] }],
          [ben, { choices: [2], weights: [1] }],
          [cleo, { choices: [3, 1], weights: [2, 5] }],
        ],
      }
      for (const [kind, cast] of Object.entries(ballotsOf) as [ProposalKind, typeof ballotsOf.basic][]) {
        const { message, signature, id } = await signProposal(ada, domain, {
          snapshot,
          kind,
          choices: kind === 'basic' ? ['For', 'Against', 'Abstain'] : THREE,
          title: `Counted, ${kind}`,
        })
        expect((await postJson(enabled, '/api/proposals', { message, signature })).statusCode).toBe(201)
        for (const [voter, fields] of cast) {
          const { response } = await vote(voter, id, fields, enabled)
          expect(response.statusCode, `${kind}: ${JSON.stringify(response.json())}`).toBe(201)
        }
        const shown = await detail(enabled, id)
        expect(shown.tally.voters, kind).toBe(cast.length)
        expect(shown.tally.rounds !== undefined, kind).toBe(kind === 'ranked-choice')
        const bundle = await bundleOf(enabled, id)
        expect(bundle.tally, kind).toEqual(shown.tally)
        expect(bundle.votes, kind).toHaveLength(cast.length)
        const report = await recount([JSON.stringify(bundle)], chain())
        expect(report.differences, kind).toEqual([])
        expect(report.matches, kind).toBe(true)
        expect(tallyToJson(report.tally), kind).toEqual(shown.tally)
        const listed = proposalListSchema
          .parse((await enabled.inject({ method: 'GET', url: '/api/proposals?limit=100' })).json())
          .proposals.find((row) => row.id === id)
        expect(listed, kind).toMatchObject({
          kind,
          result: {
            outcome: shown.tally.outcome,
            leading: shown.tally.leading,
            quorumReached: shown.tally.quorumReached,
            voters: cast.length,
          },
        })
      }
    } finally {
      await enabled.close()
    }
  }, 60_000)

  test('behavior: the weighted split is exact: Ada’s 1,250 by 3 : 1 is 937.5 and 312.5 tokens, Ben’s 850 on one choice; the votes list carries each signed message with its weights', async () => {
    const id = await created('weighted', THREE, 'Weighted, exact')
    await vote(ada, id, { choices: [1, 2], weights: [3, 1] })
    await vote(ben, id, { choices: [2], weights: [9] })
    const { tally } = await detail(app, id)
    expect(tally.perChoice).toEqual(['937500000000000000000', '1162500000000000000000', '0'])
    expect(tally).toMatchObject({ outcome: 'passed', leading: [2], votingPower: '2100000000000000000000' })
    const list = voteListSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/proposals/${id}/votes` })).json(),
    )
    expect(list.votes.map((row) => row.message)).toEqual([
      expect.objectContaining({ version: 2, voter: ada.address, choices: [1, 2], weights: [3, 1] }),
      expect.objectContaining({ version: 2, voter: ben.address, choices: [2], weights: [9] }),
    ])
  })
})

describe('ranked-choice rounds, settled from the stored ballots (ADR 060)', () => {
  /** The server's clock, which only the test moves (ms): a slow machine never passes an interval by itself. */
  let clock = Date.now()
  let clocked: FastifyInstance
  beforeAll(async () => {
    clocked = await appOn(anvil.url, {}, () => new Date(clock))
  })
  afterAll(() => clocked.close())

  /** A ranked-choice proposal of three choices with Ada's ballot on it, the clock set to now; its id and rules. */
  async function rankedWithAdasBallot(title: string) {
    clock = Date.now()
    const made = await createProposal(ada, { kind: 'ranked-choice', choices: THREE, title })
    await vote(ada, made.id, { choices: [1, 2, 3] }, clocked)
    return { id: made.id, rules: tallyRules(made.message) }
  }

  test('behavior: three rounds (Yew, then Elm eliminated, Ash wins with Cleo’s transfer); a re-vote moves the settled result to Oak once the interval has passed, never before; the stored row is the one read; the votes list filters a choice by first preference', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', FOUR, 'Ranked, re-vote')
    const settledAt = async () =>
      (await database.db.select().from(rankedResults).where(eq(rankedResults.proposalId, id)))[0]
    expect(await settledAt()).toBeUndefined()
    await vote(ada, id, { choices: [1, 2, 3, 4] }, clocked)
    await vote(ben, id, { choices: [2, 3, 1, 4] }, clocked)
    await vote(cleo, id, { choices: [3, 2, 1, 4] }, clocked)
    const first = (await detail(clocked, id)).tally
    expect(first).toMatchObject({ outcome: 'passed', leading: [2], voters: 3 })
    expect(first.rounds).toEqual([
      {
        perChoice: ['1250000000000000000000', '850000000000000000000', '500000000000000000000', '0'],
        continuing: '2600000000000000000000',
        eliminated: [4],
      },
      {
        perChoice: ['1250000000000000000000', '850000000000000000000', '500000000000000000000', null],
        continuing: '2600000000000000000000',
        eliminated: [3],
      },
      {
        perChoice: ['1250000000000000000000', '1350000000000000000000', null, null],
        continuing: '2600000000000000000000',
        eliminated: [],
      },
    ])
    expect((await settledAt())?.result).toEqual(first)
    // Every ballot ranks every choice: the votes list's choice filter keeps those that rank it first.
    const rankedFirst = async (choice: number) =>
      voteListSchema
        .parse(
          (await app.inject({ method: 'GET', url: `/api/proposals/${id}/votes?choice=${choice}` })).json(),
        )
        .votes.map((row) => row.voter)
    expect(await rankedFirst(2)).toEqual([ben.address])
    expect(await rankedFirst(4)).toEqual([])

    // Cleo re-votes, ranking Oak above Ash: within the interval the settled result stays as it was.
    await vote(cleo, id, { choices: [3, 1, 2, 4], timestamp: nowSeconds() + 1 }, clocked)
    clock += RESETTLE_INTERVAL_MS - 100
    expect((await detail(clocked, id)).tally).toEqual(first)
    clock += 200
    const moved = (await detail(clocked, id)).tally
    expect(moved).toMatchObject({ outcome: 'passed', leading: [1], voters: 3 })
    expect(moved.rounds?.at(-1)?.perChoice).toEqual([
      '1750000000000000000000',
      '850000000000000000000',
      null,
      null,
    ])
    const [tallyRow] = await database.db
      .select()
      .from(proposalTallies)
      .where(eq(proposalTallies.proposalId, id))
    expect((await settledAt())?.asOfSeq).toBe(tallyRow?.lastSeq)
  })

  test('boundary: while open a stale result is settled again at most once per interval (the deps clock); after the end the first read settles it at once', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', THREE, 'Ranked, throttle')
    const [proposalRow] = await database.db
      .select()
      .from(proposalTallies)
      .where(eq(proposalTallies.proposalId, id))
    expect(proposalRow).toBeDefined()
    const { end } = (await clocked.inject({ method: 'GET', url: `/api/proposals/${id}` })).json() as {
      end: number
    }
    // One second before the end: the read settles (no row yet).
    clock = (end - 1) * 1000
    await vote(ada, id, { choices: [1, 2, 3], timestamp: nowSeconds() }, clocked)
    expect((await detail(clocked, id)).tally.voters).toBe(1)
    // Ben votes half a second later: the row is stale, but the last settle is not an interval old.
    clock += 500
    expect((await vote(ben, id, { choices: [2, 1, 3] }, clocked)).response.statusCode).toBe(201)
    expect((await detail(clocked, id)).tally.voters).toBe(1)
    // A tenth of a second after the end (1.1 s after the last settle): settled at once, Ben counted.
    clock += 600
    expect((await detail(clocked, id)).tally.voters).toBe(2)
  })

  test('behavior: the bundle of a ranked proposal stops at the settled seq: a vote not settled yet is not in it, and the bundle recounts to the published rounds', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', THREE, 'Ranked, bundle')
    await vote(ada, id, { choices: [1, 2, 3] }, clocked)
    await vote(ben, id, { choices: [2, 1, 3] }, clocked)
    const settled = (await detail(clocked, id)).tally
    await vote(cleo, id, { choices: [3, 1, 2] }, clocked)
    const bundle = await bundleOf(clocked, id)
    expect(bundle.tally).toEqual(settled)
    expect(bundle.votes.map((one) => one.message.voter)).toEqual([ada.address, ben.address])
    expect(bundle.log.map((entry) => entry.kind)).toEqual(['proposal', 'vote', 'vote'])
    const report = await recount([JSON.stringify(bundle)], chain())
    expect(report).toMatchObject({ matches: true, differences: [], votesCounted: 2 })
    clock += RESETTLE_INTERVAL_MS + 100
    const later = await bundleOf(clocked, id)
    expect(later.votes).toHaveLength(3)
    expect(await recount([JSON.stringify(later)], chain())).toMatchObject({ matches: true, votesCounted: 3 })
  })

  test('behavior: the stored row only moves forward: an older snapshot’s settle finishing last leaves the newer result', async () => {
    const { id, rules } = await rankedWithAdasBallot('Ranked, forward only')
    const older = await settleRankedResult(database.db, id, rules)
    await vote(ben, id, { choices: [2, 1, 3] }, clocked)
    const newer = await settleRankedResult(database.db, id, rules)
    expect(newer.asOfSeq).toBeGreaterThan(older.asOfSeq)
    await storeRankedResult(database.db, id, older, new Date())
    const [row] = await database.db.select().from(rankedResults).where(eq(rankedResults.proposalId, id))
    expect(row).toMatchObject({ asOfSeq: newer.asOfSeq, result: tallyToJson(newer.result) })
    expect(row?.result.voters).toBe(2)
  })

  test('behavior: a vote that lands while a settle reads the ballots (after the tally row, before the page) leaves the settle consistent: on PGlite read again with it, on PostgreSQL as of the snapshot without it', async () => {
    const { id, rules } = await rankedWithAdasBallot('Ranked, a vote between reads')
    const adaAlone = await settleRankedResult(database.db, id, rules)
    // The settle's database, except that its first read of a ballots page (the query it ends with `limit`)
    // waits until Ben's vote is stored: between the settle's read of the tally row and of the ballots.
    let pageReads = 0
    const betweenReads = (target: object): object =>
      new Proxy(target, {
        get(object, key, receiver) {
          const value = Reflect.get(object, key, receiver)
          if (typeof value !== 'function' || key === 'then') return value
          return (...args: unknown[]) => {
            // PostgreSQL reads in a transaction: its queries too.
            if (key === 'transaction') {
              const [body, config] = args as [(tx: object) => unknown, unknown]
              return value.call(object, (tx: object) => body(betweenReads(tx)), config)
            }
            if (key === 'limit' && pageReads++ === 0) {
              const page = value.apply(object, args) as PromiseLike<unknown>
              return {
                // biome-ignore lint/suspicious/noThenProperty: the page's query, awaited as drizzle's builder is
                then: (settle: (rows: unknown) => unknown, fail: (error: unknown) => unknown) =>
                  vote(ben, id, { choices: [2, 1, 3] }, clocked)
                    .then(({ response }) => expect(response.statusCode).toBe(201))
                    .then(() => page)
                    .then(settle, fail),
              }
            }
            const returned = value.apply(object, args)
            // The builders the settle chains, not what they run (a promise).
            return returned !== null && typeof returned === 'object' && !(returned instanceof Promise)
              ? betweenReads(returned)
              : returned
          }
        },
      })
    const settled = await settleRankedResult(betweenReads(database.db) as typeof database.db, id, rules)
    // What a settle with nothing landing meanwhile finds, before Ben's vote and after it.
    const bothAlone = await settleRankedResult(database.db, id, rules)
    expect(adaAlone.result.voters).toBe(1)
    expect(bothAlone.result.voters).toBe(2)
    expect(bothAlone.asOfSeq).toBeGreaterThan(adaAlone.asOfSeq)
    if (backend === 'pglite') {
      // The tally row moved while the pages were read: read again, Ben's ballot and the row's totals together.
      expect(pageReads).toBe(2)
      expect(settled).toEqual(bothAlone)
    } else {
      // One REPEATABLE READ snapshot, taken before Ben's vote: neither his ballot nor his move of the row.
      expect(pageReads).toBe(1)
      expect(settled).toEqual(adaAlone)
    }
  })

  test('behavior: instances reading a stale ranked result at once claim its settle once: of concurrent claims at one clock exactly one wins, and none before the interval', async () => {
    const made = await rankedWithAdasBallot('Ranked, claimed')
    await detail(clocked, made.id)
    await vote(ben, made.id, { choices: [2, 1, 3] }, clocked)
    const [tallyRow] = await database.db
      .select()
      .from(proposalTallies)
      .where(eq(proposalTallies.proposalId, made.id))
    const [proposalRow] = await database.db.select().from(proposals).where(eq(proposals.id, made.id))
    if (!tallyRow || !proposalRow) throw new Error('the proposal is not stored')
    const claims = (at: number) =>
      Promise.all(
        Array.from({ length: 5 }, () =>
          claimSettle(database.db, proposalRow, tallyRow.lastSeq, new Date(at), RESETTLE_INTERVAL_MS),
        ),
      )
    expect(await claims(clock + RESETTLE_INTERVAL_MS - 1)).toEqual([false, false, false, false, false])
    const won = await claims(clock + RESETTLE_INTERVAL_MS)
    expect(won.filter(Boolean)).toHaveLength(1)
    // The winner's claim counts as the last settle: the next turn is an interval later.
    expect(await claims(clock + RESETTLE_INTERVAL_MS + 1)).toEqual([false, false, false, false, false])
  })

  test('behavior: the list shows a ranked proposal never settled with result null, and its result once its page settled it; no list read settles', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', THREE, 'Ranked, list')
    await vote(ada, id, { choices: [1, 2, 3] }, clocked)
    const listed = async () =>
      proposalListSchema
        .parse((await clocked.inject({ method: 'GET', url: '/api/proposals?limit=100' })).json())
        .proposals.find((row) => row.id === id)
    expect((await listed())?.result).toBeNull()
    expect(await database.db.select().from(rankedResults).where(eq(rankedResults.proposalId, id))).toEqual([])
    await detail(clocked, id)
    expect((await listed())?.result).toEqual({
      outcome: 'passed',
      leading: [1],
      quorumReached: true,
      voters: 1,
    })
  })

  test('behavior: the live stream sends the ranked result with its rounds, standing at its settled seq, and the re-settled one after a vote', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', THREE, 'Ranked, live')
    await vote(ada, id, { choices: [1, 2, 3] }, clocked)
    const watched = await appOn(anvil.url, {}, () => new Date(clock))
    await watched.listen({ host: '127.0.0.1', port: 0 })
    const { port } = watched.server.address() as { port: number }
    const stream = await openStream(`http://127.0.0.1:${port}/api/proposals/${id}/events`)
    try {
      const [first] = await stream.until(1)
      const opening = liveTallySchema.parse(first?.data)
      expect(opening.tally.voters).toBe(1)
      expect(opening.tally.rounds).toHaveLength(1)
      const [row] = await database.db.select().from(rankedResults).where(eq(rankedResults.proposalId, id))
      expect(first?.id).toBe(String(row?.asOfSeq))
      // Ben votes within the interval: the stream follows once it has passed, with the result re-settled.
      await vote(ben, id, { choices: [2, 1, 3] }, clocked)
      clock += RESETTLE_INTERVAL_MS + 100
      const [, second] = await stream.until(2)
      const moved = liveTallySchema.parse(second?.data)
      expect(moved.tally.voters).toBe(2)
      expect(moved.seq).toBeGreaterThan(opening.seq)
      expect(moved.tally).toEqual((await detail(watched, id)).tally)
    } finally {
      stream.close()
      await watched.close()
    }
  })

  test('behavior: `npm run tallies:check` re-settles the ranked rounds and compares them: clean, then a ranked proposal whose stored rounds were altered is named', async () => {
    clock = Date.now()
    const id = await created('ranked-choice', THREE, 'Ranked, checked')
    await vote(ada, id, { choices: [1, 2, 3] }, clocked)
    await vote(ben, id, { choices: [2, 1, 3] }, clocked)
    const clean = await checkTallies(database.db)
    expect(clean.mismatches).toEqual([])
    const [row] = await database.db.select().from(rankedResults).where(eq(rankedResults.proposalId, id))
    expect(row).toBeDefined()
    // Ada's 1,250 of 2,100 is a majority in round 1: Oak wins.
    expect(row?.result.leading).toEqual([1])
    const altered = { ...(row?.result as TallyJson), leading: [2] }
    await database.db.update(rankedResults).set({ result: altered }).where(eq(rankedResults.proposalId, id))
    const dirty = await checkTallies(database.db)
    expect(dirty.mismatches.map((mismatch) => mismatch.proposalId)).toEqual([id])
    expect(dirty.mismatches[0]?.stored.leading).toEqual([2])
    expect(dirty.mismatches[0]?.recounted.leading).toEqual([1])
    await database.db
      .update(rankedResults)
      .set({ result: row?.result as TallyJson })
      .where(eq(rankedResults.proposalId, id))
  })
})
