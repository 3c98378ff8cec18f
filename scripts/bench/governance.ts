// The governance section of `npm run bench`:
// - vote ingest over HTTP against the real server in a child process (its CPU read there, PostgreSQL's from
//   /proc), on PGlite and on PostgreSQL: 1000 distinct voters, each funded and self-delegated on the chain,
//   vote on 2 proposals at 50 concurrent; every signature is made before the measured window;
// - tally time for 10k / 100k / 1M votes (core's ordering rule and bigint tally, in-process, pure);
// - index speed: a fresh TokenIndex.syncOnce() on PGlite over a synthetic history of 100k transfers, built on
//   anvil by a helper contract (contracts/BenchTransfers.sol, compiled here by solc-js) that makes 250
//   transfers per transaction; the index is then checked against the chain for a sample of accounts;
// - voting-power lookups (TokenIndex.votesAt) from that index.
import { mkdtemp, rm } from 'node:fs/promises'
import { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  BASIC_CHOICES,
  countingVotes,
  DEFAULT_GOVERNANCE_RULES,
  type GovernanceDomain,
  governanceDomain,
  LOCAL_CHAIN_ID,
  MULTICALL3_ADDRESS,
  type ProposalMessage,
  proposalId,
  proposalTypedData,
  tally,
  type VoteListItem,
  type VoteMessage,
  voteListSchema,
  voteTypedData,
} from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import {
  type Abi,
  createPublicClient,
  encodeFunctionData,
  getAbiItem,
  type Hash,
  type Hex,
  http,
  isAddressEqual,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { testEnv } from '../../apps/api/src/demo/local-chain.ts'
import { openDatabase } from '../../apps/api/src/platform/db/client.ts'
import { TokenIndex } from '../../apps/api/src/token/token-index.ts'
import { startApiProcess, stopApiProcess } from '../../apps/api/testbed/api-process.ts'
import { benchVoterKey, deployTokenHelper, startBenchChain } from './bench-chain.ts'
import { table } from './report.ts'
import type { GovernanceBenchResult } from './schema.ts'
import { cpuMs, latency, pool, post, processCpuMs, round1, startPostgres } from './sign-in.ts'

const VOTERS = 1_000
const PROPOSALS = 2
const CONCURRENCY = 50
/** Unmeasured votes first on each server (JIT, pool and caches warm), on a proposal of their own. */
const WARM_UP = { votes: 100, concurrency: 10 }
const VOTER_TOKENS = parseEther('10')
const TALLY_SIZES = [10_000, 100_000, 1_000_000]
const HISTORY_TRANSFERS = 100_000
/**
 * Per transaction (one a block). Each transfer also writes a vote checkpoint for its delegated recipient;
 * 250 fit in HISTORY_TX_GAS (a transaction that ran out would revert, and the bench stops on it).
 */
const TRANSFERS_PER_TX = 250
const HISTORY_TX_GAS = 15_000_000n
const HISTORY_AMOUNT = parseEther('0.001')
/**
 * Blocks per eth_getLogs for the index run. The history is dense (≈ 500 events a block), so the server's
 * default span (10,000 blocks) would ask for all 200k logs at once; 20 blocks is ≈ 10,000 logs per request,
 * the result cap common providers set.
 */
const INDEX_MAX_RANGE = 20
/** Accounts whose index answers are compared with the token's own (getPastVotes, balanceOf). */
const CHECKED_ACCOUNTS = 25
const LOOKUPS = 2_000
/** Generous: the index of the setup has a few thousand events; a server that is not there by then is broken. */
const INDEX_READY_TIMEOUT_MS = 120_000
const REQUEST_HEADERS = { 'user-agent': 'guildhall-bench', 'content-type': 'application/json' }

type IngestRun = Exclude<GovernanceBenchResult['ingest'][number], { skipped: string }>
type IndexRun = GovernanceBenchResult['index']

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

// ---------------------------------------------------------------------------------------------------------
// The chain: the demo DAO, the helper contract, 1000 funded and self-delegated voters, the history

type Account = ReturnType<typeof privateKeyToAccount>
type Chain = {
  url: string
  pid: number | undefined
  deployment: DemoDeployment
  client: PublicClient
  helperAbi: Abi
  voters: Account[]
  send: (data: Hex, gas: bigint) => Promise<Hash>
  receipt: (hash: Hash) => Promise<Awaited<ReturnType<PublicClient['getTransactionReceipt']>>>
}

/** The demo DAO's chain with the helper contract and VOTERS funded, self-delegated voters; anvil stops with `cleanups`. */
async function prepareChain(cleanups: (() => Promise<void>)[], log: (m: string) => void): Promise<Chain> {
  const bench = await startBenchChain()
  const { anvil, deployment, client, testClient, receipt } = bench
  cleanups.push(() => anvil.stop())
  log('governance: compiling contracts/BenchTransfers.sol (solc-js) and deploying it')
  // The helper gets what it hands out: the voters' tokens and the history's.
  const helper = await deployTokenHelper(
    bench,
    'BenchTransfers',
    VOTER_TOKENS * BigInt(VOTERS) + HISTORY_AMOUNT * BigInt(HISTORY_TRANSFERS),
  )
  const { abi: helperAbi, send } = helper

  log(`governance: ${VOTERS} voters: tokens from the helper, ETH, and a delegation to themselves`)
  // Fixed keys (not random), so every run has the same voters and the same history.
  const voters = Array.from({ length: VOTERS }, (_, i) => privateKeyToAccount(benchVoterKey('bench', i)))
  for (let i = 0; i < VOTERS; i += TRANSFERS_PER_TX) {
    const recipients = voters.slice(i, i + TRANSFERS_PER_TX).map((voter) => voter.address)
    const data = encodeFunctionData({
      abi: helperAbi,
      functionName: 'transferEach',
      args: [deployment.token, recipients, VOTER_TOKENS],
    })
    await receipt(await send(data, HISTORY_TX_GAS))
  }
  await pool(VOTERS, 20, async (i) => {
    await testClient.setBalance({ address: (voters[i] as Account).address, value: parseEther('1') })
  })
  // Each voter signs its own delegate(self); all are mined in one block (gas limit raised) rather than one
  // block each, which would take anvil about as many seconds as there are tens of voters.
  const gasPrice = (await client.getGasPrice()) * 2n
  const delegations = await Promise.all(
    voters.map((voter) =>
      voter.signTransaction({
        chainId: LOCAL_CHAIN_ID,
        type: 'eip1559',
        to: deployment.token,
        data: encodeFunctionData({
          abi: governanceTokenAbi,
          functionName: 'delegate',
          args: [voter.address],
        }),
        nonce: 0,
        gas: 300_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 1n,
      }),
    ),
  )
  await testClient.setBlockGasLimit({ gasLimit: 1_000_000_000n })
  await testClient.setAutomine(false)
  const hashes: Hash[] = []
  try {
    await pool(delegations.length, 20, async (i) => {
      hashes[i] = await client.sendRawTransaction({ serializedTransaction: delegations[i] as Hex })
    })
    await testClient.mine({ blocks: 1 })
  } finally {
    await testClient.setAutomine(true)
  }
  await pool(hashes.length, 20, async (i) => {
    await receipt(hashes[i] as Hash)
  })
  // getPastVotes (and so a snapshot) needs blocks strictly before the head.
  await testClient.mine({ blocks: 2 })
  return {
    url: anvil.url,
    pid: anvil.pid,
    deployment,
    client,
    helperAbi,
    voters,
    send,
    receipt,
  }
}

/** 100k transfers from the helper to the voters (every recipient delegated: a Transfer and a votes event each). */
async function buildHistory(chain: Chain, log: (m: string) => void) {
  const transactions = Math.ceil(HISTORY_TRANSFERS / TRANSFERS_PER_TX)
  log(`governance: building a history of ${HISTORY_TRANSFERS} transfers (${transactions} transactions)`)
  const started = performance.now()
  const firstBlock = Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1
  let events = 0
  for (let t = 0; t < transactions; t++) {
    const recipients = Array.from(
      { length: Math.min(TRANSFERS_PER_TX, HISTORY_TRANSFERS - t * TRANSFERS_PER_TX) },
      (_, i) => (chain.voters[(t * TRANSFERS_PER_TX + i) % VOTERS] as Account).address,
    )
    const data = encodeFunctionData({
      abi: chain.helperAbi,
      functionName: 'transferEach',
      args: [chain.deployment.token, recipients, HISTORY_AMOUNT],
    })
    const receipt = await chain.receipt(await chain.send(data, HISTORY_TX_GAS))
    events += receipt.logs.filter((l) => isAddressEqual(l.address, chain.deployment.token)).length
  }
  const lastBlock = Number(await chain.client.getBlockNumber({ cacheTime: 0 }))
  log(`governance: history built in ${Math.round((performance.now() - started) / 1000)} s`)
  return { firstBlock, lastBlock, events }
}

// ---------------------------------------------------------------------------------------------------------
// Vote ingest

type SignedBody = { path: string; body: string }
type Ballots = {
  warmUp: { proposal: SignedBody; votes: SignedBody[] }
  proposals: SignedBody[]
  votes: SignedBody[]
  ids: Hex[]
}

/** Every proposal and vote, signed once before any server runs (each database gets the same requests). */
async function signBallots(chain: Chain, domain: GovernanceDomain, snapshot: number): Promise<Ballots> {
  const now = Math.floor(Date.now() / 1000)
  const author = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
  const signProposal = async (title: string) => {
    const message: ProposalMessage = {
      author: author.address,
      title,
      body: 'A proposal of the governance bench.',
      kind: 'basic',
      choices: [...BASIC_CHOICES],
      start: now - 600,
      end: now + 3_600,
      snapshot,
      ...DEFAULT_GOVERNANCE_RULES,
      timestamp: now - 600,
    }
    const signature = await author.signTypedData(proposalTypedData(domain, message))
    return {
      id: proposalId(domain, message),
      request: { path: '/api/proposals', body: JSON.stringify({ message, signature }) },
    }
  }
  const signVotes = (id: Hex, voters: Account[], choice: (i: number) => number) =>
    Promise.all(
      voters.map(async (voter, i) => {
        const message: VoteMessage = {
          voter: voter.address,
          proposal: id,
          choices: [choice(i)],
          reason: '',
          timestamp: now,
        }
        const signature = await voter.signTypedData(voteTypedData(domain, message))
        return { path: `/api/proposals/${id}/votes`, body: JSON.stringify({ message, signature }) }
      }),
    )
  const warmUpProposal = await signProposal('Bench warm-up')
  const proposals = await Promise.all(
    Array.from({ length: PROPOSALS }, (_, n) => signProposal(`Bench ${n + 1}`)),
  )
  const votes: SignedBody[] = []
  // Proposal after proposal: the 50 requests in flight are always 50 different voters.
  for (const [n, proposal] of proposals.entries())
    votes.push(...(await signVotes(proposal.id, chain.voters, (i) => 1 + ((i + n) % 3))))
  return {
    warmUp: {
      proposal: warmUpProposal.request,
      votes: await signVotes(warmUpProposal.id, chain.voters.slice(0, WARM_UP.votes), () => 1),
    },
    proposals: proposals.map((p) => p.request),
    votes,
    ids: proposals.map((p) => p.id),
  }
}

async function ingestRun({
  chain,
  ballots,
  storage,
  databaseCpuMs,
  indexedFrom,
}: {
  chain: Chain
  ballots: Ballots
  storage: Record<string, string>
  databaseCpuMs: (() => number) | null
  indexedFrom: number
}): Promise<Omit<IngestRun, 'database'>> {
  const server = await startApiProcess({
    ...testEnv(chain.url, chain.deployment),
    SIGN_IN: 'off',
    // The bench measures ingest from one load generator, not the per-client limit.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ...storage,
  })
  const url = new URL(server.origin)
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const headers = { ...REQUEST_HEADERS, origin: url.origin }
  const send = (request: SignedBody) => post(agent, url, request.path, headers, request.body)
  try {
    // Voting power comes from the server's index once it has the setup's blocks (from the chain before).
    const deadline = Date.now() + INDEX_READY_TIMEOUT_MS
    while (true) {
      const answer = await fetch(`${url.origin}/api/token/holders`).then(
        (r) => r.json(),
        () => undefined,
      )
      const block = Number((answer as { blockNumber?: string } | undefined)?.blockNumber ?? -1)
      if (block >= indexedFrom) break
      if (Date.now() > deadline)
        throw new Error(`the server's token index did not reach block ${indexedFrom}`)
      await new Promise((done) => setTimeout(done, 200))
    }
    for (const request of [ballots.warmUp.proposal, ...ballots.proposals]) {
      const reply = await send(request)
      if (reply.status !== 201) throw new Error(`creating a bench proposal: ${reply.status} ${reply.body}`)
    }
    await pool(ballots.warmUp.votes.length, WARM_UP.concurrency, async (i) => {
      const reply = await send(ballots.warmUp.votes[i] as SignedBody)
      if (reply.status !== 201) throw new Error(`a warm-up vote: ${reply.status} ${reply.body}`)
    })

    const samples: number[] = []
    let errors = 0
    const databaseBefore = databaseCpuMs?.()
    const serverBefore = await server.cpu()
    const started = performance.now()
    await pool(ballots.votes.length, CONCURRENCY, async (i) => {
      try {
        const reply = await send(ballots.votes[i] as SignedBody)
        samples.push(reply.ms)
        if (reply.status !== 201) errors++
      } catch {
        errors++
      }
    })
    const seconds = (performance.now() - started) / 1000
    const serverMs = cpuMs(await server.cpu()) - cpuMs(serverBefore)
    const databaseMs = databaseCpuMs && databaseBefore !== undefined ? databaseCpuMs() - databaseBefore : null
    const stored = ballots.votes.length - errors

    // Each proposal now counts every voter once, with the power the chain gave them.
    for (const id of ballots.ids) {
      const counted: VoteListItem[] = []
      for (let cursor: string | null = ''; cursor !== null; ) {
        const query: string = `limit=100${cursor ? `&cursor=${cursor}` : ''}`
        const page = voteListSchema.parse(
          await (await fetch(`${url.origin}/api/proposals/${id}/votes?${query}`)).json(),
        )
        counted.push(...page.votes)
        cursor = page.next
      }
      const wrong = counted.filter((vote) => BigInt(vote.power) !== VOTER_TOKENS)
      if (errors === 0 && (counted.length !== VOTERS || wrong.length > 0))
        throw new Error(`proposal ${id}: ${counted.length} votes stored, ${wrong.length} with wrong power`)
    }
    return {
      voters: VOTERS,
      proposals: PROPOSALS,
      concurrency: CONCURRENCY,
      votes: ballots.votes.length,
      votesPerSecond: Math.round(ballots.votes.length / seconds),
      latencyMs: latency(samples),
      errors,
      cpuMsPerVote: {
        apiServer: round1(serverMs / Math.max(stored, 1)),
        databaseServer: databaseMs === null ? null : round1(databaseMs / Math.max(stored, 1)),
      },
    }
  } finally {
    agent.destroy()
    await stopApiProcess(server, 'SIGTERM')
  }
}

// ---------------------------------------------------------------------------------------------------------
// Index speed and lookups

async function indexRun(
  chain: Chain,
  history: { firstBlock: number; lastBlock: number; events: number },
  dataDir: string,
) {
  const events = [
    getAbiItem({ abi: governanceTokenAbi, name: 'Transfer' }),
    getAbiItem({ abi: governanceTokenAbi, name: 'DelegateChanged' }),
    getAbiItem({ abi: governanceTokenAbi, name: 'DelegateVotesChanged' }),
  ]
  // The events before the history (demo seed, voters' funding and delegations): few, one request.
  const setupEvents = await chain.client.getLogs({
    address: chain.deployment.token,
    events,
    fromBlock: BigInt(chain.deployment.deployBlock),
    toBlock: BigInt(history.firstBlock - 1),
  })
  const database = await openDatabase({ dataDir })
  try {
    await database.migrate()
    // As the server builds it (deps.ts), with the span per request set for this dense history.
    const client = createPublicClient({
      transport: http(chain.url),
      batch: { multicall: true },
    }) as PublicClient
    const index = new TokenIndex({
      db: database.db,
      client,
      chainId: LOCAL_CHAIN_ID,
      token: chain.deployment.token,
      fromBlock: chain.deployment.deployBlock,
      confirmations: 0,
      multicall3: MULTICALL3_ADDRESS,
      maxRange: INDEX_MAX_RANGE,
    })
    const anvilBefore = chain.pid === undefined ? null : processCpuMs(chain.pid)
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const { indexedBlock } = await index.syncOnce()
    const seconds = (performance.now() - started) / 1000
    const indexerCpu = cpuMs(process.cpuUsage(cpuBefore))
    const anvilAfter = chain.pid === undefined ? null : processCpuMs(chain.pid)
    if (indexedBlock < history.lastBlock)
      throw new Error(`the index reached block ${indexedBlock}, not the history's end ${history.lastBlock}`)

    // A figure for a wrong index is worthless: compare a sample with the token's own answers.
    const checked = chain.voters.filter((_, i) => i % Math.floor(VOTERS / CHECKED_ACCOUNTS) === 0)
    const middle = Math.floor((history.firstBlock + history.lastBlock) / 2)
    for (const voter of checked) {
      for (const block of [history.firstBlock - 1, middle, history.lastBlock - 1]) {
        const [indexed, onChain] = await Promise.all([
          index.votesAt(voter.address, block),
          client.readContract({
            address: chain.deployment.token,
            abi: governanceTokenAbi,
            functionName: 'getPastVotes',
            args: [voter.address, BigInt(block)],
          }),
        ])
        if (indexed.source !== 'index' || indexed.value !== onChain)
          throw new Error(`index: votes of ${voter.address} at ${block}: ${indexed.value}, chain ${onChain}`)
      }
      const [balance, onChain] = await Promise.all([
        index.balanceAt(voter.address, indexedBlock),
        client.readContract({
          address: chain.deployment.token,
          abi: governanceTokenAbi,
          functionName: 'balanceOf',
          args: [voter.address],
          blockNumber: BigInt(indexedBlock),
        }),
      ])
      if (balance.value !== onChain)
        throw new Error(`index: balance of ${voter.address}: ${balance.value}, chain ${onChain}`)
    }

    const totalEvents = setupEvents.length + history.events
    const run: IndexRun = {
      database: 'PGlite',
      transfers: HISTORY_TRANSFERS,
      events: totalEvents,
      blocks: indexedBlock - chain.deployment.deployBlock + 1,
      maxRange: INDEX_MAX_RANGE,
      seconds: round1(seconds),
      eventsPerSecond: Math.round(totalEvents / seconds),
      cpuSeconds: {
        indexer: round1(indexerCpu / 1000),
        anvil: anvilBefore === null || anvilAfter === null ? null : round1((anvilAfter - anvilBefore) / 1000),
      },
      checkedAccounts: checked.length,
    }

    // Lookups: voters (about 100 vote checkpoints each) at blocks spread over the whole indexed span.
    const samples: number[] = []
    const span = indexedBlock - chain.deployment.deployBlock + 1
    for (let i = 0; i < LOOKUPS; i++) {
      const voter = chain.voters[(i * 7_919) % VOTERS] as Account
      const block = chain.deployment.deployBlock + ((i * 104_729) % span)
      const lookupStarted = performance.now()
      const answer = await index.votesAt(voter.address, block)
      samples.push((performance.now() - lookupStarted) * 1000)
      if (answer.source !== 'index') throw new Error(`lookup at block ${block} was answered by the chain`)
    }
    return { index: run, lookup: { lookups: LOOKUPS, accounts: VOTERS, latencyUs: latency(samples) } }
  } finally {
    await database.close()
  }
}

// ---------------------------------------------------------------------------------------------------------

export async function runGovernanceBench({
  log,
}: {
  log: (message: string) => void
}): Promise<GovernanceBenchResult> {
  log('governance: tally of 10k, 100k and 1M votes')
  const tallyResult = tallyTimes()

  const cleanups: (() => Promise<void>)[] = []
  try {
    const chain = await prepareChain(cleanups, log)
    const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: chain.deployment.token })
    const head = Number(await chain.client.getBlockNumber({ cacheTime: 0 }))
    const snapshot = head - 1
    log(`governance: signing ${PROPOSALS + 1} proposals and ${PROPOSALS * VOTERS + WARM_UP.votes} votes`)
    const ballots = await signBallots(chain, domain, snapshot)

    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-bench-governance-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    log('governance: starting a throwaway PostgreSQL (scripts/with-postgres.sh)')
    const postgres = await startPostgres()
    if (!('skipped' in postgres)) cleanups.push(postgres.stop)
    const ingest: GovernanceBenchResult['ingest'] = []
    for (const database of ['PGlite', 'PostgreSQL'] as const) {
      if (database === 'PostgreSQL' && 'skipped' in postgres) {
        ingest.push({ database, skipped: postgres.skipped })
        continue
      }
      log(`governance: vote ingest on ${database}, ${ballots.votes.length} votes, ${CONCURRENCY} concurrent`)
      const run = await ingestRun({
        chain,
        ballots,
        indexedFrom: head,
        ...(database === 'PGlite' || 'skipped' in postgres
          ? { storage: { DATA_DIR: join(dataDir, 'api') }, databaseCpuMs: null }
          : { storage: { DATABASE_URL: postgres.url }, databaseCpuMs: postgres.serverCpuMs }),
      })
      ingest.push({ database, ...run })
    }

    const history = await buildHistory(chain, log)
    log(
      `governance: indexing from the deployment block with a fresh TokenIndex (PGlite), then ${LOOKUPS} lookups`,
    )
    const { index, lookup } = await indexRun(chain, history, join(dataDir, 'index'))
    return { ingest, tally: tallyResult, index, lookup }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  }
}

export function formatGovernanceReport(r: GovernanceBenchResult): string {
  const ingest = table([
    [
      'Vote ingest (HTTP, server in a child process)',
      'votes',
      'votes/s',
      'p50',
      'p99',
      'max',
      'non-201',
      'CPU/vote',
    ],
    ...r.ingest.map((run) =>
      'skipped' in run
        ? [run.database, 'skipped', run.skipped, '', '', '', '', '']
        : [
            `${run.database}, ${run.voters} voters × ${run.proposals} proposals, ${run.concurrency} concurrent`,
            String(run.votes),
            String(run.votesPerSecond),
            `${run.latencyMs.p50} ms`,
            `${run.latencyMs.p99} ms`,
            `${run.latencyMs.max} ms`,
            String(run.errors),
            `${run.cpuMsPerVote.apiServer} ms API${
              run.cpuMsPerVote.databaseServer === null ? '' : ` + ${run.cpuMsPerVote.databaseServer} ms DB`
            }`,
          ],
    ),
  ])
  const tallies = table([
    ['Tally (ordering rule + bigint tally, in-process)', 'time'],
    ...r.tally.map((t) => [`${t.votes.toLocaleString('en-US')} votes`, `${t.ms} ms`]),
  ])
  const i = r.index
  const index = table([
    [
      'Token index, fresh sync (TokenIndex.syncOnce)',
      'events',
      'blocks',
      'time',
      'events/s',
      'CPU index / anvil',
    ],
    [
      `${i.database}, ${i.transfers.toLocaleString('en-US')} transfers, ${i.maxRange} blocks per eth_getLogs`,
      i.events.toLocaleString('en-US'),
      String(i.blocks),
      `${i.seconds} s`,
      i.eventsPerSecond.toLocaleString('en-US'),
      `${i.cpuSeconds.indexer} s / ${i.cpuSeconds.anvil ?? '?'} s`,
    ],
  ])
  const lookup = table([
    ['Voting-power lookup (TokenIndex.votesAt, that index)', 'p50', 'p99', 'max'],
    [
      `${r.lookup.lookups} lookups, ${r.lookup.accounts} accounts`,
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
    index,
    `  The index matched the token's getPastVotes and balanceOf for ${i.checkedAccounts} sampled accounts.`,
    '',
    lookup,
  ].join('\n')
}
