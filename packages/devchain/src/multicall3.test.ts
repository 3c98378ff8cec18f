import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { createPublicClient, http } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { type DemoDeployment, deployDemoDao } from './demo-dao.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
}, 30_000)

afterAll(() => anvil?.stop())

test('behavior: the demo chain has Multicall3, and reads through it match single reads', async () => {
  const chain = { ...foundry, contracts: { multicall3: { address: MULTICALL3_ADDRESS } } } as const
  const client = createPublicClient({ chain, transport: http(anvil.url) })
  const token = { address: deployment.token, abi: governanceTokenAbi } as const
  const [name, supply] = await client.multicall({
    allowFailure: false,
    contracts: [
      { ...token, functionName: 'name' },
      { ...token, functionName: 'totalSupply' },
    ],
  })
  expect(name).toBe(deployment.tokenName)
  expect(supply).toBe(await client.readContract({ ...token, functionName: 'totalSupply' }))
})
