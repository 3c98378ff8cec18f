// The governance section's index speed: a fresh TokenIndex.syncOnce() on PGlite over the synthetic history,
// checked against the chain for a sample of accounts, then voting-power lookups (TokenIndex.votesAt) from it.

import { openDatabase } from '@guildhall/api/database'
import { demoTokenIndex } from '@guildhall/api/testbed'
import { MULTICALL3_ADDRESS } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { createPublicClient, getAbiItem, http, type PublicClient } from 'viem'
import { cpuMs, processCpuMs } from '../harness/processes.ts'
import type { GovernanceBenchResult } from '../harness/schema.ts'
import { latency, round1 } from '../harness/stats.ts'
import { type Account, type Chain, HISTORY_TRANSFERS, VOTERS } from './chain.ts'

/**
 * Blocks per eth_getLogs for the index run. The history is dense (≈ 500 events a block), so the server's
 * default span (10,000 blocks) would ask for all 200k logs at once; 20 blocks is ≈ 10,000 logs per request,
 * the result cap common providers set.
 */
const INDEX_MAX_RANGE = 20
/** Accounts whose index answers are compared with the token's own (getPastVotes, balanceOf). */
const CHECKED_ACCOUNTS = 25
export const LOOKUPS = 2_000

type IndexRun = GovernanceBenchResult['index']

export async function indexRun(
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
    // With multicalls as the server's (token/area.ts), and the span per request set for this dense history.
    const client = createPublicClient({
      transport: http(chain.url),
      batch: { multicall: true },
    }) as PublicClient
    const index = demoTokenIndex(
      { db: database.db, client, deployment: chain.deployment },
      { multicall3: MULTICALL3_ADDRESS, maxRange: INDEX_MAX_RANGE },
    )
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
