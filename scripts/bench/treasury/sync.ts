// The treasury section's index run, once per treasury and database: the token index first (in this process,
// untimed: the treasury's figures are the treasury index's), then the API server with the treasury
// configured, its leader catching up from the Safe's creation block while the bench polls the history's
// newest row; then the whole history as CSV, counted by kind against what the chain holds.

import { Agent } from 'node:http'
import { demoEnv } from '@guildhall/api/demo'
import { type ApiProcess, startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { get } from '../harness/http.ts'
import type { TreasuryBenchResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'
import { type Storage, withIndexedDatabase } from '../harness/storage.ts'
import type { BenchTreasury, TreasuryChain } from './chain.ts'
import { INDEX_MAX_RANGE } from './plan.ts'

const SYNC_TIMEOUT_MS = 30 * 60_000
const POLL_MS = 100

type SyncRun = TreasuryBenchResult['browser']['smallSync']

/** The API server for `treasury` on `storage`, configured as `npm start` configures the demo's. */
async function startTreasuryServer(
  chain: TreasuryChain,
  treasury: BenchTreasury,
  storage: Storage,
  webDist: string,
): Promise<ApiProcess> {
  return startApiProcess({
    ...demoEnv({ anvilUrl: chain.anvil.url, deployment: chain.deployment, webDist, env: {} }),
    ...('dataDir' in storage ? { DATA_DIR: storage.dataDir } : { DATABASE_URL: storage.databaseUrl }),
    TREASURY_SAFE: treasury.address,
    TREASURY_START_BLOCK: String(treasury.startBlock),
    LOG_LEVEL: 'silent',
    // The bench's readers are one client: the per-client limits are for the open internet.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    EXPORT_RATE_LIMIT_PER_MINUTE: '1000000',
  })
}

/** The token index of the chain into `storage`, before any server runs on it. */
function indexToken(chain: TreasuryChain, storage: Storage): Promise<number> {
  return withIndexedDatabase(chain, storage, INDEX_MAX_RANGE, async (_database, index) => {
    const started = performance.now()
    await index.syncOnce()
    return (performance.now() - started) / 1000
  })
}

/** The history as CSV, every row: its size, time, and rows per kind (the header names a `kind` column). */
async function csvKinds(agent: Agent, url: URL): Promise<SyncRun['csv']> {
  const reply = await get(agent, url, '/api/treasury/history.csv')
  if (reply.status !== 200) throw new Error(`history.csv: ${reply.status} ${reply.body.slice(0, 200)}`)
  const [header = '', ...lines] = reply.body.trimEnd().split('\n')
  const column = header.split(',').indexOf('kind')
  if (column < 0) throw new Error(`history.csv has no kind column: ${header}`)
  const kinds: Record<string, number> = {}
  for (const line of lines) {
    const kind = line.split(',')[column] ?? '?'
    kinds[kind] = (kinds[kind] ?? 0) + 1
  }
  return { rows: lines.length, bytes: reply.bytes, seconds: round1(reply.ms / 1000), kinds }
}

/**
 * Indexes the token, starts the server and times its treasury index's catch-up; checks the history against
 * the chain. The server keeps running for the readers; the caller stops it.
 */
export async function syncTreasury(
  chain: TreasuryChain,
  treasury: BenchTreasury,
  storage: Storage,
  webDist: string,
  agent: Agent,
  log: (message: string) => void,
): Promise<{ server: ApiProcess; run: SyncRun }> {
  const tokenIndexSeconds = await indexToken(chain, storage)
  const server = await startTreasuryServer(chain, treasury, storage, webDist)
  const url = new URL(server.origin)
  try {
    const started = performance.now()
    log(`treasury: the server's index catching up on ${treasury.transfers.toLocaleString('en-US')} transfers`)
    // A connection per poll: while the index holds the server's event loop for seconds, a kept-alive
    // connection would time out on the server just as the next poll is sent (ECONNRESET).
    const polls = new Agent({ keepAlive: false })
    let longestAnswerMs = 0
    for (;;) {
      const reply = await get(polls, url, '/api/treasury/history?limit=1')
      longestAnswerMs = Math.max(longestAnswerMs, reply.ms)
      if (reply.status !== 200) throw new Error(`history: ${reply.status} ${reply.body.slice(0, 200)}`)
      const newest = (JSON.parse(reply.body) as { items: { blockNumber: number }[] }).items[0]
      if (newest && newest.blockNumber >= treasury.lastBlock) break
      if (performance.now() - started > SYNC_TIMEOUT_MS)
        throw new Error(`the treasury index did not reach block ${treasury.lastBlock} in 30 min`)
      await new Promise((done) => setTimeout(done, POLL_MS))
    }
    const seconds = (performance.now() - started) / 1000
    const csv = await csvKinds(agent, url)
    // A figure for a wrong index is worthless: every Transfer the chain holds, each once, and the executions.
    const expected = {
      incoming: treasury.kinds.incoming + treasury.ethDeposits,
      outgoing: treasury.kinds.outgoing + treasury.kinds.executed,
      execution: treasury.kinds.executed + 1,
    }
    for (const [kind, count] of Object.entries(expected))
      if (csv.kinds[kind] !== count)
        throw new Error(`the history has ${csv.kinds[kind] ?? 0} ${kind} rows, the chain ${count}`)
    return {
      server,
      run: {
        transfers: treasury.transfers,
        seconds: round1(seconds),
        transfersPerSecond: Math.round(treasury.transfers / seconds),
        longestAnswerMs: Math.round(longestAnswerMs),
        tokenIndexSeconds: round1(tokenIndexSeconds),
        csv,
      },
    }
  } catch (error) {
    await stopApiProcess(server, 'SIGTERM')
    throw new Error(
      `${error instanceof Error ? error.message : error}; the server wrote:\n${server.output()}`,
    )
  }
}
