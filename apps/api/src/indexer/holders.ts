import type { HolderStats } from '@guildhall/core'
import { type Address, type PublicClient, parseAbiItem, zeroAddress } from 'viem'

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')
/** eth_getLogs block range per request; providers commonly cap ranges near 10k blocks. */
const LOG_RANGE = 10_000n

/**
 * Counts addresses with a non-zero token balance by following Transfer logs.
 * Held in memory and advanced incrementally: a stopgap until the token index lands in the database.
 */
export function createHolderCounter({
  client,
  token,
  fromBlock,
}: {
  client: PublicClient
  token: Address
  fromBlock: bigint
}) {
  const balances = new Map<Address, bigint>()
  let nextBlock = fromBlock
  let pending: Promise<HolderStats> | undefined

  async function advance(): Promise<HolderStats> {
    const head = await client.getBlockNumber({ cacheTime: 0 })
    while (nextBlock <= head) {
      const toBlock = nextBlock + LOG_RANGE - 1n < head ? nextBlock + LOG_RANGE - 1n : head
      const logs = await client.getLogs({
        address: token,
        event: transferEvent,
        fromBlock: nextBlock,
        toBlock,
        strict: true,
      })
      for (const { args } of logs) {
        if (args.from !== zeroAddress) balances.set(args.from, (balances.get(args.from) ?? 0n) - args.value)
        if (args.to !== zeroAddress) balances.set(args.to, (balances.get(args.to) ?? 0n) + args.value)
      }
      nextBlock = toBlock + 1n
    }
    let holders = 0
    for (const balance of balances.values()) if (balance > 0n) holders++
    return { holders, blockNumber: head.toString() }
  }

  return {
    /** Current holder count; concurrent callers share one scan. */
    stats(): Promise<HolderStats> {
      pending ??= advance().finally(() => {
        pending = undefined
      })
      return pending
    },
  }
}
