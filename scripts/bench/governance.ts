// The governance section of `npm run bench` (issue 5): vote ingest over HTTP against the real server (a
// child process, on PGlite and on PostgreSQL), tally time for 10k / 100k / 1M votes, and voting-power lookups
// from the token index. Not measured yet: index speed on a synthetic history of 100k transfers.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  BASIC_CHOICES,
  countingVotes,
  governanceDomain,
  LOCAL_CHAIN_ID,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  tally,
  type VoteMessage,
  voteTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { deployDemoDao } from '@guildhall/devchain/demo-dao'
import { createPublicClient, createTestClient, type Hex, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { openDatabase } from '../../apps/api/src/db/client.ts'
import { startApi, stopApi } from '../../apps/api/src/fault/api-process.ts'
import { TokenIndex } from '../../apps/api/src/indexer/token-index.ts'
import { table } from './report.ts'
import { type Latency, latency, startPostgres } from './sign-in.ts'

const PROPOSALS = 200
const CONCURRENCY = 50
const TALLY_SIZES = [10_000, 100_000, 1_000_000]
const LOOKUPS = 2_000
const voters = [1, 2, 3].map((index) => privateKeyToAccount(anvilAccounts[index]?.privateKey as Hex))

export type IngestRun = {
  database: string
  votes: number
  votesPerSecond: number
  latencyMs: Latency
  errors: number
}
export type GovernanceBenchResult = {
  ingest: (IngestRun | { database: string; skipped: string })[]
  tally: { votes: number; ms: number }[]
  lookup: { lookups: number; latencyUs: Latency }
}

/** Tally time: one voter per vote, the ordering rule over them, then the tally, as the server does it. */
function tallyTimes(): GovernanceBenchResult['tally'] {
  return TALLY_SIZES.map((votes) => {
    const list = Array.from({ length: votes }, (_, i) => ({
      voter: `0x${i.toString(16).padStart(40, '0')}`,
      id: `0x${(i * 2_654_435_761).toString(16).padStart(64, '0')}`,
      timestamp: i,
      choices: [1 + (i % 3)],
      power: BigInt(i % 1_000) * 10n ** 18n,
    }))
    const started = performance.now()
    tally(
      { kind: 'basic', choiceCount: 3, quorum: 10n ** 21n, abstainCountsToQuorum: true },
      countingVotes(list).values(),
    )
    return { votes, ms: Math.round(performance.now() - started) }
  })
}

export async function runGovernanceBench({
  log,
}: {
  log: (message: string) => void
}): Promise<GovernanceBenchResult> {
  log('governance: tally of 10k, 100k and 1M votes')
  const tallyResult = tallyTimes()

  const anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  const cleanups: (() => Promise<void>)[] = [() => anvil.stop()]
  try {
    const deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
    const client = createPublicClient({ transport: http(anvil.url) }) as PublicClient

    log(`governance: ${LOOKUPS} voting-power lookups from the token index (PGlite)`)
    const database = await openDatabase()
    await database.migrate()
    const index = new TokenIndex({
      db: database.db,
      client,
      chainId: LOCAL_CHAIN_ID,
      token: deployment.token,
      fromBlock: deployment.deployBlock,
      confirmations: 0,
    })
    const { indexedBlock } = await index.syncOnce()
    const samples: number[] = []
    for (let i = 0; i < LOOKUPS; i++) {
      const account = anvilAccounts[i % 10]?.address as Hex
      const block = deployment.deployBlock + (i % (indexedBlock - deployment.deployBlock + 1))
      const started = performance.now()
      await index.votesAt(account, block)
      samples.push((performance.now() - started) * 1000)
    }
    await database.close()

    const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: deployment.token })
    const snapshot = Number(await client.getBlockNumber()) - 1
    const ingest: GovernanceBenchResult['ingest'] = []
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-votes-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)
    for (const [name, storage] of [
      ['PGlite', { DATA_DIR: join(dataDir, 'db') }],
      ['PostgreSQL', 'skipped' in postgres ? null : { DATABASE_URL: postgres.url }],
    ] as const) {
      if (!storage) {
        ingest.push({ database: name, skipped: 'skipped' in postgres ? postgres.skipped : '' })
        continue
      }
      log(`governance: vote ingest on ${name}, ${PROPOSALS * voters.length} votes, ${CONCURRENCY} concurrent`)
      ingest.push({
        database: name,
        ...(await ingestRun({ anvilUrl: anvil.url, deployment, domain, snapshot, storage })),
      })
    }
    return { ingest, tally: tallyResult, lookup: { lookups: LOOKUPS, latencyUs: latency(samples) } }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
}

async function ingestRun({
  anvilUrl,
  deployment,
  domain,
  snapshot,
  storage,
}: {
  anvilUrl: string
  deployment: { token: Hex; deployBlock: number }
  domain: ReturnType<typeof governanceDomain>
  snapshot: number
  storage: Record<string, string>
}): Promise<Omit<IngestRun, 'database'>> {
  const api = await startApi({
    CHAIN_IDS: String(LOCAL_CHAIN_ID),
    [`RPC_URL_${LOCAL_CHAIN_ID}`]: anvilUrl,
    TOKEN_ADDRESS: deployment.token,
    TOKEN_DEPLOY_BLOCK: String(deployment.deployBlock),
    WALLETS: 'injected',
    SIGN_IN: 'off',
    ...storage,
  })
  try {
    const now = Math.floor(Date.now() / 1000)
    const post = (path: string, body: unknown) =>
      fetch(`${api.origin}${path}`, {
        method: 'POST',
        headers: { origin: api.origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    // Proposals first (not measured), then every voter's vote on each, all signed before the clock starts.
    const [author] = voters as [(typeof voters)[number]]
    const bodies: { path: string; body: unknown }[] = []
    for (let n = 0; n < PROPOSALS; n++) {
      const message: ProposalMessage = {
        author: author.address,
        title: `Bench ${n}`,
        body: '',
        kind: 'basic',
        choices: [...BASIC_CHOICES],
        start: now - 600,
        end: now + 3_600,
        snapshot,
        quorum: '1000000000000000000000',
        threshold: '1000000000000000000',
        abstainCountsToQuorum: true,
        timestamp: now - 600,
      }
      const response = await post('/api/proposals', {
        message,
        signature: await author.signTypedData(proposalTypedData(domain, message)),
      })
      if (response.status !== 201)
        throw new Error(`creating a bench proposal: ${response.status} ${await response.text()}`)
      const id = proposalId(domain, message)
      for (const voter of voters) {
        const vote: VoteMessage = {
          voter: voter.address,
          proposal: id,
          choices: [1 + (n % 3)],
          reason: '',
          timestamp: now,
        }
        bodies.push({
          path: `/api/proposals/${id}/votes`,
          body: { message: vote, signature: await voter.signTypedData(voteTypedData(domain, vote)) },
        })
      }
    }
    const samples: number[] = []
    let errors = 0
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < bodies.length; i = next++) {
          const { path, body } = bodies[i] as (typeof bodies)[number]
          const sent = performance.now()
          const response = await post(path, body)
          await response.arrayBuffer()
          samples.push(performance.now() - sent)
          if (response.status !== 201) errors++
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    return {
      votes: bodies.length,
      votesPerSecond: Math.round(bodies.length / seconds),
      latencyMs: latency(samples),
      errors,
    }
  } finally {
    await stopApi(api, 'SIGTERM')
  }
}

export function formatGovernanceReport(r: GovernanceBenchResult): string {
  const ingest = table([
    ['Vote ingest (HTTP, server in a child process)', 'votes', 'votes/s', 'p50', 'p99', 'max', 'non-201'],
    ...r.ingest.map((run) =>
      'skipped' in run
        ? [run.database, 'skipped', run.skipped, '', '', '', '']
        : [
            `${run.database}, ${CONCURRENCY} concurrent`,
            String(run.votes),
            String(run.votesPerSecond),
            `${run.latencyMs.p50} ms`,
            `${run.latencyMs.p99} ms`,
            `${run.latencyMs.max} ms`,
            String(run.errors),
          ],
    ),
  ])
  const tallies = table([
    ['Tally (ordering rule + bigint tally, in-process)', 'time'],
    ...r.tally.map((t) => [`${t.votes.toLocaleString('en-US')} votes`, `${t.ms} ms`]),
  ])
  const lookup = table([
    ['Voting-power lookup (token index, PGlite)', 'p50', 'p99', 'max'],
    [
      `${r.lookup.lookups} lookups`,
      `${r.lookup.latencyUs.p50} µs`,
      `${r.lookup.latencyUs.p99} µs`,
      `${r.lookup.latencyUs.max} µs`,
    ],
  ])
  return [
    ingest,
    '',
    tallies,
    '',
    lookup,
    '',
    '  Not measured yet: index speed on a synthetic history of ≥ 100k transfers (issue 5).',
  ].join('\n')
}
