import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { prepareTreasuryChain, type TreasuryChain } from './chain.ts'
import { ROUND_SECONDS, ROUNDS, transferPlan } from './plan.ts'

describe('the treasury bench chain', () => {
  let chain: TreasuryChain
  beforeAll(async () => {
    chain = await prepareTreasuryChain({ sizes: { large: 2000, small: 100 }, log: () => {} })
  }, 120_000)
  afterAll(() => chain?.anvil.stop())

  test('behavior: each Safe holds what its planned transfers left it, its history spread over every round', async () => {
    for (const [name, size] of [
      ['large', 2000],
      ['small', 100],
    ] as const) {
      const treasury = chain.treasuries[name]
      const planned = { incoming: 0, outgoing: 0, executed: 0 }
      for (const transfer of transferPlan(size)) planned[transfer.kind]++
      // prepareTreasuryChain counted each Safe's Transfer logs on the chain against these, or threw.
      expect(treasury.kinds).toEqual(planned)
      expect(planned.executed).toBeGreaterThan(0)
      const balance = await chain.client.readContract({
        address: chain.deployment.token,
        abi: governanceTokenAbi,
        functionName: 'balanceOf',
        args: [treasury.address],
      })
      expect(balance).toBe(
        parseEther('10') * BigInt(planned.incoming) -
          parseEther('9') * BigInt(planned.outgoing + planned.executed),
      )
      expect(await chain.client.getBalance({ address: treasury.address })).toBe(
        parseEther('1') * BigInt(treasury.ethDeposits),
      )
      expect(treasury.ethDeposits).toBe(10)
      const [first, last] = await Promise.all(
        [treasury.startBlock + 1, treasury.lastBlock].map((n) =>
          chain.client.getBlock({ blockNumber: BigInt(n) }),
        ),
      )
      expect(Number((last?.timestamp ?? 0n) - (first?.timestamp ?? 0n))).toBeGreaterThanOrEqual(
        (ROUNDS - 1) * ROUND_SECONDS,
      )
    }
  })
})
