// What the indexes (the token's, the treasury's) read of the chain's blocks: a block's hash and time by
// number (a range's end, the cursor's block, a fork point), and the time of the blocks logs came from (ADR 040).
import { BlockNotFoundError, type Hash, type PublicClient } from 'viem'

/** What a block's time is read from: a log as the indexes keep it. */
export type DatedLog = { blockNumber: number; blockHash: Hash; blockTimestamp: number | null }

/** Blocks fetched at once, dating logs on a node that does not send their time. */
const BLOCK_FETCH_CONCURRENCY = 8

/** The chain's block `number` (its hash and time); null when the chain has no such block. */
export async function blockAt(
  client: PublicClient,
  number: number,
): Promise<{ hash: Hash; timestamp: bigint } | null> {
  try {
    const block = await client.getBlock({ blockNumber: BigInt(number) })
    return { hash: block.hash, timestamp: block.timestamp }
  } catch (error) {
    if (error instanceof BlockNotFoundError) return null
    throw error
  }
}

/** The chain's hash of block `number`; null when the chain has no such block (it is shorter now). */
export async function hashAt(client: PublicClient, number: number): Promise<Hash | null> {
  return (await blockAt(client, number))?.hash ?? null
}

/**
 * The time of each block of `logs`: from the logs themselves (nodes that follow the current JSON-RPC
 * specification send `blockTimestamp` with each log), else from the block, by its hash, so the time is that
 * of the very block the logs came from.
 */
export async function logBlockTimes(
  client: PublicClient,
  logs: readonly DatedLog[],
): Promise<Map<number, number>> {
  const times = new Map<number, number>()
  const missing = new Map<number, Hash>()
  for (const log of logs) {
    if (log.blockTimestamp !== null) times.set(log.blockNumber, log.blockTimestamp)
    else missing.set(log.blockNumber, log.blockHash)
  }
  const asked = [...missing].filter(([number]) => !times.has(number))
  for (let i = 0; i < asked.length; i += BLOCK_FETCH_CONCURRENCY) {
    const blocks = await Promise.all(
      asked.slice(i, i + BLOCK_FETCH_CONCURRENCY).map(([, blockHash]) => client.getBlock({ blockHash })),
    )
    for (const block of blocks)
      if (block.number !== null) times.set(Number(block.number), Number(block.timestamp))
  }
  return times
}
