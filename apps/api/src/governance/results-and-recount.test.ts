// Verifiable results over HTTP: the hash-linked log, the result bundle, and the recount that checks it;
// against a real chain (anvil with the demo DAO) and a real database (PGlite, or PostgreSQL under
// scripts/with-postgres.sh); the setup is the kit's governance bed (testbed/beds/governance.ts).
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import {
  type LogEntry,
  logChainProblem,
  type RecoverSigner,
  recoverSigner,
  TALLY_VERSION,
  type VoteMessage,
} from '@guildhall/core'
import {
  BundleFormatError,
  type RecountProgress,
  type RecountWork,
  recount,
  recountWorkHere,
  resultBundleSchema,
} from '@guildhall/core/recount'
import { eq } from 'drizzle-orm'
import { createPublicClient, type Hex, http, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { beforeAll, describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  ben,
  cleo,
  createProposal,
  database,
  postVote,
  rowsOf,
  signedVote,
  snapshot,
  useGovernanceBed,
} from '../../testbed/beds/governance.ts'
import { ballots, governanceLog, proposals, votes } from '../platform/db/schema.ts'

useGovernanceBed()

describe('verifiable results', () => {
  test('behavior: the log links every accepted proposal and vote end to end, and the bundle carries a proposal’s part', async () => {
    const { id } = await createProposal(ada, { title: 'Bundled' })
    await postVote(`/api/proposals/${id}/votes`, await signedVote(ben, id, { choices: [1] }))
    await postVote(`/api/proposals/${id}/votes`, await signedVote(cleo, id, { choices: [2] }))
    const { entries } = (await app.inject({ method: 'GET', url: '/api/governance/log' })).json() as {
      entries: LogEntry[]
    }
    expect(entries.length).toBe(await rowsOf(governanceLog))
    expect(entries.length).toBe((await rowsOf(proposals)) + (await rowsOf(votes)))
    expect(logChainProblem(entries)).toBeNull()
    // The middle entry of this file's three (the first vote): the log breaks there, not before.
    const tampered = entries.map((entry, i) => (i === 1 ? { ...entry, signature: '0x00' as Hex } : entry))
    expect(logChainProblem(tampered)).toEqual({ seq: 2, problem: 'its hash does not match its fields' })

    const bundle = (await app.inject({ method: 'GET', url: `/api/proposals/${id}/bundle` })).json()
    expect(bundle).toMatchObject({
      format: 'guildhall-result-bundle/1',
      tallyVersion: TALLY_VERSION,
      snapshot,
    })
    expect(bundle.votes).toHaveLength(2)
    expect(bundle.log.map((entry: LogEntry) => entry.kind)).toEqual(['proposal', 'vote', 'vote'])
    expect(bundle.tally.perChoice).toEqual(['850000000000000000000', '500000000000000000000', '0'])
  })
})

describe('recount', () => {
  let proposal: Hex
  beforeAll(async () => {
    proposal = (await createProposal(ada, { title: 'Recounted' })).id
    await postVote(`/api/proposals/${proposal}/votes`, await signedVote(ben, proposal, { choices: [1] }))
    await postVote(`/api/proposals/${proposal}/votes`, await signedVote(cleo, proposal, { choices: [3] }))
  })
  const bundleOf = async () =>
    resultBundleSchema.parse(
      (await app.inject({ method: 'GET', url: `/api/proposals/${proposal}/bundle` })).json(),
    )
  const chain = () => createPublicClient({ transport: http(anvil.url) })
  /** A bundle's text in pieces of `size` characters, as a network delivers it. */
  const inPieces = (text: string, size = 97) =>
    Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size))

  test('behavior: the recount of an untouched result matches, with progress for each step', async () => {
    const steps = new Set<string>()
    const progress: RecountProgress[] = []
    const report = await recount(inPieces(JSON.stringify(await bundleOf())), chain(), (p) => {
      progress.push(p)
      steps.add(p.step)
    })
    expect(report).toMatchObject({ matches: true, differences: [], votesChecked: 2, votesCounted: 2 })
    // The proposal's, then the votes', which are checked together.
    expect(progress.filter((p) => p.step === 'signatures')).toEqual(
      [1, 3].map((done) => ({ step: 'signatures', done, total: 3 })),
    )
    expect(report.tally.perChoice).toEqual([850n * 10n ** 18n, 0n, 500n * 10n ** 18n])
    expect([...steps]).toEqual(['signatures', 'voting power', 'tally'])
  })

  test('behavior: the votes, then the log entries, go to the work in chunks (the browser spreads them over its cores, the CLI its recovery), and the report is the same', async () => {
    const text = JSON.stringify(await bundleOf())
    let waiting = 0
    let mostWaiting = 0
    const recover: RecoverSigner = async (hash, signature) => {
      waiting += 1
      mostWaiting = Math.max(mostWaiting, waiting)
      await new Promise((resolve) => setTimeout(resolve, 10))
      waiting -= 1
      return recoverSigner(hash, signature)
    }
    const here = recountWorkHere(recover)
    const chunks: string[] = []
    const work: RecountWork = {
      checkVotes: (domain, votes) => {
        chunks.push(`${votes.length} votes`)
        return here.checkVotes(domain, votes)
      },
      hashLogEntries: (entries) => {
        chunks.push(`${entries.length} log entries`)
        return here.hashLogEntries(entries)
      },
    }
    const together = await recount(inPieces(text), chain(), undefined, { work })
    expect(chunks).toEqual(['2 votes', '3 log entries'])
    expect(mostWaiting).toBe(2)
    expect(together).toEqual(await recount(inPieces(text), chain()))
    expect(together.matches).toBe(true)
  })

  test('behavior: over several chunks (1,100 votes), altered votes and log entries are reported in the bundle’s order, votes first; the powers are read 200 to an eth_call', async () => {
    const bundle = await bundleOf()
    const voters = Array.from({ length: 1_100 }, (_, i) =>
      privateKeyToAccount(toHex(1_000 + i, { size: 32 })),
    )
    const added = await Promise.all(
      voters.map((voter, i) => signedVote(voter, proposal, { choices: [1], reason: `Vote ${i}` })),
    )
    // Six votes' reasons changed after signing, in each of the three chunks of 512 (the bundle's 2 votes first).
    const altered = new Set([0, 250, 500, 750, 1_000, 1_099])
    const votes = added.map((vote, i) =>
      altered.has(i) ? { ...vote, message: { ...vote.message, reason: 'changed' } } : vote,
    )
    const log = bundle.log.map((entry, i) => (i === 1 ? { ...entry, signature: '0x00' as Hex } : entry))
    const calls: string[] = []
    const counted = createPublicClient({
      transport: http(anvil.url, {
        onFetchRequest: async (request) => {
          calls.push((JSON.parse(await request.clone().text()) as { method: string }).method)
        },
      }),
    })
    const report = await recount(
      inPieces(
        JSON.stringify({
          ...bundle,
          voteCount: bundle.voteCount + votes.length,
          votes: [...bundle.votes, ...votes],
          log,
        }),
      ),
      counted,
    )
    expect(report.votesChecked).toBe(bundle.voteCount + 1_100)
    // Each counted voter's power read once, 200 to an eth_call (ADR 085), not in viem's 1 KB pieces.
    expect(report.votesCounted).toBe(bundle.voteCount + 1_100 - altered.size)
    expect(calls.filter((method) => method === 'eth_call')).toHaveLength(Math.ceil(report.votesCounted / 200))
    const reported = report.differences.filter((d) => /does not match its id|does not hash/.test(d))
    expect(reported).toEqual([
      ...[...altered].map(
        (i) =>
          `Vote ${votes[i]?.id.slice(0, 10)}… by ${voters[i]?.address} does not match its id: its choices, reason or time were changed after signing.`,
      ),
      `Log entry ${log[1]?.seq} does not hash to its stored hash.`,
    ])
    // Signing and recounting 1,100 votes takes about 3 s on a quiet 2-core machine: vitest's default 5 s left
    // no room when the machine was busy (a CI run beside other work timed it out).
  }, 30_000)

  test('behavior: `npm run recount -- <proposal URL> --rpc <url>` prints "matches" and exits 0', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    // Asynchronously: this process serves the bundle the CLI asks for.
    const { stdout } = await promisify(execFile)(
      'npx',
      ['tsx', 'scripts/recount.ts', `${url}/proposals/${proposal}`, '--rpc', anvil.url],
      { cwd: new URL('../../../../', import.meta.url).pathname, encoding: 'utf8', timeout: 60_000 },
    )
    // execFile rejects on a non-zero exit code, so reaching this line means exit code 0.
    expect(stdout).toContain('The result matches: 2 signatures checked, 2 votes counted.')
  }, 70_000)

  test('behavior: a signed vote the proposal does not allow (choice 7 of 3), slipped into a bundle, is reported and not counted', async () => {
    const bundle = await bundleOf()
    const slipped = await signedVote(ben, proposal, { choices: [7] })
    const report = await recount(
      [JSON.stringify({ ...bundle, voteCount: bundle.voteCount + 1, votes: [...bundle.votes, slipped] })],
      chain(),
    )
    expect(report.matches).toBe(false)
    expect(report.differences).toEqual(
      expect.arrayContaining([
        `Vote ${slipped.id.slice(0, 10)}… by ${ben.address} was counted though it is not allowed: Choice 7 does not exist: this proposal has choices 1 to 3.`,
      ]),
    )
    expect(report.votesCounted).toBe(2)
  })

  test('behavior: a bundle cut short, a vote of the wrong shape or a vote count that differs → the recount says so, naming the part', async () => {
    const text = JSON.stringify(await bundleOf())
    await expect(recount(inPieces(text.slice(0, -40)), chain())).rejects.toThrow(BundleFormatError)
    await expect(recount(inPieces(text.slice(0, -40)), chain())).rejects.toThrow(
      'The bundle is not complete JSON',
    )
    const bundle = await bundleOf()
    const broken = { ...bundle, votes: [bundle.votes[0], { ...bundle.votes[1], signature: 'not hex' }] }
    await expect(recount([JSON.stringify(broken)], chain())).rejects.toThrow(/^Vote 2: /)
    await expect(recount(['{"format":"something else"}'], chain())).rejects.toThrow(/^The bundle: /)
    const short = await recount([JSON.stringify({ ...bundle, voteCount: 3 })], chain())
    expect(short.differences).toEqual(['The bundle announces 3 votes but carries 2.'])
  })

  test('behavior: a vote altered in the database is reported, and the recounted tally differs from the published one', async () => {
    const [ballot] = await database.db.select().from(ballots).where(eq(ballots.proposalId, proposal))
    const [stored] = await database.db
      .select()
      .from(votes)
      .where(eq(votes.id, ballot?.voteId as string))
    const flipped = stored?.message.choices[0] === 1 ? [2] : [1]
    await database.db
      .update(votes)
      .set({ message: { ...(stored?.message as VoteMessage), choices: flipped } })
      .where(eq(votes.id, stored?.id as string))
    const report = await recount([JSON.stringify(await bundleOf())], chain())
    expect(report.matches).toBe(false)
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/does not match its id: its choices, reason or time were changed/),
      ]),
    )
    expect(report.votesCounted).toBe(1)
  })
})
