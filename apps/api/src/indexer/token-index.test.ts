// The token index against a real anvil chain and a real database (PGlite, or PostgreSQL under
// scripts/with-postgres.sh): every answer is checked against what the token contract itself says.
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type DemoDeployment, deployDemoDao } from '@guildhall/devchain/demo-dao'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type TestDatabase, testDatabase } from '../db/test-database.ts'
import { TokenIndex } from './token-index.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let chain: PublicClient
const accounts = anvilAccounts.slice(0, 10).map((account) => account.address)

/** A client that counts the JSON-RPC methods it sends, to prove what the index asks the chain. */
function countingClient(url: string) {
  const calls: string[] = []
  const inner = http(url)({ chain: undefined, retryCount: 0 })
  const client = createPublicClient({
    transport: custom({
      async request({ method, params }) {
        calls.push(method)
        return inner.request({ method, params } as Parameters<typeof inner.request>[0])
      },
    }),
  }) as PublicClient
  return { client, calls }
}

const newIndex = (client: PublicClient, confirmations = 0) =>
  new TokenIndex({
    db: database.db,
    client,
    chainId: LOCAL_CHAIN_ID,
    token: deployment.token,
    fromBlock: deployment.deployBlock,
    confirmations,
  })

const devchain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})

async function transfer(fromIndex: number, to: Address, amount: string) {
  const account = privateKeyToAccount(anvilAccounts[fromIndex]?.privateKey as Hex)
  const wallet = createWalletClient({ account, chain: devchain, transport: http(anvil.url) })
  const hash = await wallet.writeContract({
    address: deployment.token,
    abi: governanceTokenAbi,
    functionName: 'transfer',
    args: [to, parseEther(amount)],
    gas: 300_000n,
  })
  await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

async function delegate(fromIndex: number, to: Address) {
  const account = privateKeyToAccount(anvilAccounts[fromIndex]?.privateKey as Hex)
  const wallet = createWalletClient({ account, chain: devchain, transport: http(anvil.url) })
  const hash = await wallet.writeContract({
    address: deployment.token,
    abi: governanceTokenAbi,
    functionName: 'delegate',
    args: [to],
    gas: 300_000n,
  })
  await chain.waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

/** Every account at every block from the deployment to `last`: the index must say what the token says. */
async function expectIndexEqualsChain(index: TokenIndex, last: number) {
  const token = { address: deployment.token, abi: governanceTokenAbi } as const
  for (let block = deployment.deployBlock; block <= last; block++) {
    for (const account of accounts) {
      const [votes, balance, delegatee] = await Promise.all([
        index.votesAt(account, block),
        index.balanceAt(account, block),
        index.delegateAt(account, block),
      ])
      const at = `${account} at block ${block}`
      expect({ votes, balance, delegatee }, at).toEqual({
        votes: {
          source: 'index',
          value: await chain.readContract({
            ...token,
            functionName: 'getPastVotes',
            args: [account, BigInt(block)],
          }),
        },
        balance: {
          source: 'index',
          value: await chain.readContract({
            ...token,
            functionName: 'balanceOf',
            args: [account],
            blockNumber: BigInt(block),
          }),
        },
        delegatee: {
          source: 'index',
          value: await chain.readContract({
            ...token,
            functionName: 'delegates',
            args: [account],
            blockNumber: BigInt(block),
          }),
        },
      })
    }
  }
}

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
  deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  database = await testDatabase()
}, 60_000)

afterAll(async () => {
  await database?.close()
  await anvil?.stop()
})

describe('token index', () => {
  test('behavior: votes, balance and delegate of every demo account at every block equal the token’s own answers', async () => {
    // One more block, so getPastVotes can be asked about the last indexed one.
    await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 1 })
    const index = newIndex(chain, 1)
    const result = await index.syncOnce()
    const head = Number(await chain.getBlockNumber())
    expect(result).toEqual({ indexedBlock: head - 1, targetBlock: head - 1, rewoundTo: null })
    await expectIndexEqualsChain(index, result.indexedBlock)
  }, 120_000)

  test('behavior: above the indexed block the answer comes from the chain and says so', async () => {
    const index = newIndex(chain, 1)
    const indexed = await index.indexedBlock()
    const ada = accounts[1] as Address
    const answer = await index.balanceAt(ada, indexed + 1)
    expect(answer.source).toBe('chain')
    expect(answer.value).toBe(
      await chain.readContract({
        address: deployment.token,
        abi: governanceTokenAbi,
        functionName: 'balanceOf',
        args: [ada],
        blockNumber: BigInt(indexed + 1),
      }),
    )
  })

  test('behavior: a new index on the same database resumes from its cursor without fetching old ranges again', async () => {
    const first = newIndex(chain)
    await first.syncOnce()
    const indexed = await first.indexedBlock()
    await transfer(1, accounts[9] as Address, '5')
    const { client, calls } = countingClient(anvil.url)
    const resumed = newIndex(client)
    const result = await resumed.syncOnce()
    expect(result.indexedBlock).toBeGreaterThan(indexed)
    // One range covers the new block; nothing from the deployment block on is fetched again.
    expect(calls.filter((method) => method === 'eth_getLogs')).toHaveLength(1)
    expect((await resumed.balanceAt(accounts[9] as Address, result.indexedBlock)).value).toBe(parseEther('5'))
  })

  test('behavior: a reorg below the indexed block is found, rewound and indexed again from the chain’s new history', async () => {
    const test = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
    const index = newIndex(chain)
    await index.syncOnce()
    const snapshot = await test.snapshot()
    const forkPoint = Number(await chain.getBlockNumber())
    // The history that will be dropped: Ben sends Cleo tokens and Finn delegates to himself.
    await transfer(2, accounts[3] as Address, '100')
    await delegate(6, accounts[6] as Address)
    const before = await index.syncOnce()
    expect(before.indexedBlock).toBe(forkPoint + 2)
    expect((await index.votesAt(accounts[6] as Address, forkPoint + 2)).value).toBe(parseEther('50'))

    // The chain replaces those blocks with others, and grows longer than before.
    await test.revert({ id: snapshot })
    await transfer(3, accounts[2] as Address, '7')
    await test.mine({ blocks: 3 })
    const after = await index.syncOnce()
    expect(after.rewoundTo).not.toBeNull()
    expect(after.rewoundTo).toBeLessThanOrEqual(forkPoint)
    expect(after.indexedBlock).toBe(Number(await chain.getBlockNumber()))
    expect((await index.votesAt(accounts[6] as Address, after.indexedBlock)).value).toBe(0n)
    await test.mine({ blocks: 1 })
    await expectIndexEqualsChain(index, after.indexedBlock)
  }, 120_000)
})
