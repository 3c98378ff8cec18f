import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { governanceTokenAbi, governanceTokenBytecode } from '@guildhall/core/generated/governance-token'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  http,
  isAddress,
  parseEther,
} from 'viem'
import { anvilAccounts } from './accounts.ts'
import { installMulticall3 } from './multicall3.ts'

export type DemoMember = {
  name: string
  address: Address
  /** Token balance in wei, as a decimal string (JSON has no bigint). */
  balance: string
  /** Who the member delegates to; null = never delegated (no voting power anywhere). */
  delegate: Address | null
}

export type DemoDeployment = {
  chainId: number
  token: Address
  deployBlock: number
  tokenName: string
  tokenSymbol: string
  members: DemoMember[]
}

export const DEMO_TOKEN = { name: 'Guildhall Demo Token', symbol: 'GHD', decimals: 18 } as const

/** The deterministic seed: anvil account index, name, GHD amount, and delegate's account index. */
export const demoSeed = [
  { account: 1, name: 'Ada', amount: '1000', delegateTo: 1 },
  { account: 2, name: 'Ben', amount: '750', delegateTo: 2 },
  { account: 3, name: 'Cleo', amount: '500', delegateTo: 3 },
  { account: 4, name: 'Dev', amount: '250', delegateTo: 1 },
  { account: 5, name: 'Eve', amount: '100', delegateTo: 2 },
  { account: 6, name: 'Finn', amount: '50', delegateTo: null },
  { account: 7, name: 'Gia', amount: '10', delegateTo: null },
  { account: 8, name: 'Hugo', amount: '1', delegateTo: null },
  // A new member: ETH (anvil funds every account) but no tokens.
  { account: 9, name: 'Iris', amount: '0', delegateTo: null },
] as const satisfies readonly { account: number; name: string; amount: string; delegateTo: number | null }[]

// Explicit limit for mint/delegate (~120k worst case). Anvil estimates gas against the latest block's
// number, so right after a checkpoint written in that block it under-prices the new checkpoint the tx
// writes when mined in the next block, and the tx runs out of gas.
const SEED_TX_GAS = 300_000n

type ChainTarget = { rpcUrl: string; chainId: number }

function clients({ rpcUrl, chainId }: ChainTarget) {
  const chain = defineChain({
    id: chainId,
    name: 'Guildhall devchain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  // Anvil answers instantly; viem's 4 s default polling would dominate deploy time.
  const transport = http(rpcUrl)
  const options = { chain, transport, pollingInterval: 50 }
  return {
    chain,
    publicClient: createPublicClient(options),
    walletClient: createWalletClient(options),
    testClient: createTestClient({ ...options, mode: 'anvil' }),
  }
}

function account(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
}

/** Deploys the demo token from anvil account 0 and seeds members 1–9 (balances, delegations, history). */
export async function deployDemoDao({ rpcUrl, chainId }: ChainTarget): Promise<DemoDeployment> {
  const { publicClient, walletClient, testClient } = clients({ rpcUrl, chainId })
  const actual = await publicClient.getChainId()
  if (actual !== chainId) throw new Error(`${rpcUrl} is chain ${actual}, expected ${chainId}`)

  const deployer = account(0)
  const deployHash = await walletClient.deployContract({
    account: deployer,
    abi: governanceTokenAbi,
    bytecode: governanceTokenBytecode,
    args: [DEMO_TOKEN.name, DEMO_TOKEN.symbol],
  })
  const deployReceipt = await successfulReceipt(publicClient, deployHash)
  const token = deployReceipt.contractAddress
  if (!token) throw new Error('deploy receipt has no contract address')

  // Submit each phase in order without waiting per tx: with automine every tx gets its own block,
  // with interval mining they share the next one; either way the final state is the same.
  const mints: Hash[] = []
  for (const member of demoSeed) {
    if (member.amount === '0') continue
    mints.push(
      await walletClient.writeContract({
        account: deployer,
        address: token,
        abi: governanceTokenAbi,
        functionName: 'mint',
        args: [account(member.account), parseEther(member.amount)],
        gas: SEED_TX_GAS,
      }),
    )
  }
  for (const hash of mints) await successfulReceipt(publicClient, hash)
  // Empty blocks between phases, so "voting power before delegation" is a real, queryable block.
  await testClient.mine({ blocks: 2 })

  const delegations: Hash[] = []
  for (const member of demoSeed) {
    if (member.delegateTo === null) continue
    delegations.push(
      await walletClient.writeContract({
        account: account(member.account),
        address: token,
        abi: governanceTokenAbi,
        functionName: 'delegate',
        args: [account(member.delegateTo)],
        gas: SEED_TX_GAS,
      }),
    )
  }
  for (const hash of delegations) await successfulReceipt(publicClient, hash)
  // Votes are readable with getPastVotes only for blocks strictly before the current one.
  await testClient.mine({ blocks: 3 })
  // Lets the app batch its reads as on a public chain (MULTICALL3_ADDRESS_31337 in the app's config).
  await installMulticall3(testClient)

  return {
    chainId,
    token,
    deployBlock: Number(deployReceipt.blockNumber),
    tokenName: DEMO_TOKEN.name,
    tokenSymbol: DEMO_TOKEN.symbol,
    members: demoSeed.map((member) => ({
      name: member.name,
      address: account(member.account),
      balance: parseEther(member.amount).toString(),
      delegate: member.delegateTo === null ? null : account(member.delegateTo),
    })),
  }
}

async function successfulReceipt(publicClient: ReturnType<typeof clients>['publicClient'], hash: Hash) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
  if (receipt.status !== 'success') throw new Error(`demo seed transaction ${hash} reverted`)
  return receipt
}

/** Reuses the deployment recorded at `deploymentPath` if the chain still has it; otherwise deploys and records it. */
export async function ensureDemoDao({
  rpcUrl,
  chainId,
  deploymentPath,
}: ChainTarget & { deploymentPath: string }): Promise<DemoDeployment> {
  const recorded = readDeployment(deploymentPath)
  if (recorded && recorded.chainId === chainId) {
    const { publicClient } = clients({ rpcUrl, chainId })
    const [actualChainId, code] = await Promise.all([
      publicClient.getChainId(),
      publicClient.getCode({ address: recorded.token }),
    ])
    if (actualChainId === chainId && code && code !== '0x') return recorded
  }
  // Missing, for another chain, or the chain was reset (no code at the address): deploy afresh.
  const deployment = await deployDemoDao({ rpcUrl, chainId })
  mkdirSync(path.dirname(path.resolve(deploymentPath)), { recursive: true })
  // Write then rename, so a crash never leaves half a JSON file that blocks the next start.
  const tmp = `${deploymentPath}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(deployment, null, 2)}\n`)
  renameSync(tmp, deploymentPath)
  return deployment
}

/** Reads a deployment JSON file; undefined if absent or not a deployment. */
export function readDeployment(deploymentPath: string): DemoDeployment | undefined {
  if (!existsSync(deploymentPath)) return undefined
  try {
    const data = JSON.parse(readFileSync(deploymentPath, 'utf8')) as Partial<DemoDeployment>
    const valid =
      typeof data.chainId === 'number' &&
      typeof data.token === 'string' &&
      isAddress(data.token) &&
      typeof data.deployBlock === 'number' &&
      Array.isArray(data.members)
    return valid ? (data as DemoDeployment) : undefined
  } catch {
    // A corrupt file is treated like a missing one: redeploy and overwrite it.
    return undefined
  }
}
