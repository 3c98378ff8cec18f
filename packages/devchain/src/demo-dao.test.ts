import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { type Address, createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { DEMO_TOKEN, type DemoDeployment, demoSeed, ensureDemoDao } from './demo-dao.ts'

const chainId = 31337
const dir = mkdtempSync(path.join(tmpdir(), 'guildhall-devchain-'))
const statePath = path.join(dir, 'anvil-state.json')
const deploymentPath = path.join(dir, 'deployment.json')
let anvil: AnvilInstance | undefined

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId, statePath, quiet: true })
})
afterAll(async () => {
  await anvil?.stop()
  rmSync(dir, { recursive: true, force: true })
})

function addr(index: number): Address {
  const account = anvilAccounts[index]
  if (!account) throw new Error(`no anvil account ${index}`)
  return account.address
}

function running(): AnvilInstance {
  if (!anvil) throw new Error('anvil is not running')
  return anvil
}

function reader(url: string) {
  // cacheTime 0: viem otherwise caches eth_blockNumber, which would make "no new block" checks vacuous.
  return createPublicClient({ transport: http(url), cacheTime: 0 })
}

async function readMember(url: string, token: Address, address: Address) {
  const client = reader(url)
  const read = (functionName: 'balanceOf' | 'delegates' | 'getVotes') =>
    client.readContract({ address: token, abi: governanceTokenAbi, functionName, args: [address] })
  const [balance, delegate, votes] = await Promise.all([
    read('balanceOf'),
    read('delegates'),
    read('getVotes'),
  ])
  return { balance, delegate, votes }
}

// Expected voting power from the seed: own balance if self-delegated, plus balances delegated in.
function expectedVotes(account: number): bigint {
  return demoSeed.filter((m) => m.delegateTo === account).reduce((sum, m) => sum + parseEther(m.amount), 0n)
}

let first: DemoDeployment

test('default: deploys the token and seeds balances, delegates and votes per member', async () => {
  const url = running().url
  first = await ensureDemoDao({ rpcUrl: url, chainId, deploymentPath })
  expect(first).toMatchObject({ chainId, tokenName: DEMO_TOKEN.name, tokenSymbol: DEMO_TOKEN.symbol })
  expect(JSON.parse(readFileSync(deploymentPath, 'utf8'))).toEqual(first)

  const client = reader(url)
  const token = { address: first.token, abi: governanceTokenAbi } as const
  expect(await client.readContract({ ...token, functionName: 'name' })).toBe('Guildhall Demo Token')
  expect(await client.readContract({ ...token, functionName: 'symbol' })).toBe('GHD')
  expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(18)
  expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(parseEther('2661'))
  expect(await client.readContract({ ...token, functionName: 'owner' })).toBe(addr(0))

  expect(first.members.map((m) => m.name)).toEqual([
    'Ada',
    'Ben',
    'Cleo',
    'Dev',
    'Eve',
    'Finn',
    'Gia',
    'Hugo',
    'Iris',
  ])
  for (const [i, seed] of demoSeed.entries()) {
    const member = first.members[i]
    const address = addr(seed.account)
    if (!member) throw new Error(`no member ${i}`)
    const onChain = await readMember(url, first.token, address)
    expect(member.address).toBe(address)
    expect(member.balance).toBe(parseEther(seed.amount).toString())
    expect(onChain.balance.toString()).toBe(member.balance)
    expect(onChain.delegate).toBe(member.delegate ?? '0x0000000000000000000000000000000000000000')
    expect(onChain.votes).toBe(expectedVotes(seed.account))
  }
  // Spot-check the arithmetic the UI will show: Ada 1000 + Dev 250, Ben 750 + Eve 100.
  expect(expectedVotes(1)).toBe(parseEther('1250'))
  expect(expectedVotes(2)).toBe(parseEther('850'))

  // Seeding leaves history behind the head, so past-vote lookups at the head-1 block work.
  const head = await client.getBlockNumber()
  expect(head).toBeGreaterThan(BigInt(first.deployBlock) + 10n)
  const past = await client.readContract({
    ...token,
    functionName: 'getPastVotes',
    args: [addr(1), head - 1n],
  })
  expect(past).toBe(parseEther('1250'))
  // Before any delegation nobody had votes (block after the mints, before delegations).
  const early = await client.readContract({
    ...token,
    functionName: 'getPastVotes',
    args: [addr(1), BigInt(first.deployBlock)],
  })
  expect(early).toBe(0n)
})

test('behavior: ensureDemoDao on the same chain reuses the deployment without sending a transaction', async () => {
  const client = reader(running().url)
  const before = await client.getBlockNumber()
  const again = await ensureDemoDao({ rpcUrl: running().url, chainId, deploymentPath })
  expect(again).toEqual(first)
  expect(await client.getBlockNumber()).toBe(before)
})

test('behavior: a restart on the same state file keeps the chain and does not redeploy', async () => {
  const headBefore = await reader(running().url).getBlockNumber()
  await running().stop()
  anvil = await startAnvil({ port: await getFreePort(), chainId, statePath, quiet: true })
  const client = reader(anvil.url)
  expect(await client.getBlockNumber()).toBe(headBefore)

  const again = await ensureDemoDao({ rpcUrl: anvil.url, chainId, deploymentPath })
  expect(again.token).toBe(first.token)
  expect(await client.getBlockNumber()).toBe(headBefore)
  const ada = await readMember(anvil.url, first.token, addr(1))
  expect(ada).toEqual({
    balance: parseEther('1000'),
    delegate: addr(1),
    votes: parseEther('1250'),
  })
  // Historical state survives too: balance at the deploy block (before any mint) was 0.
  const balanceAtDeploy = await client.readContract({
    address: first.token,
    abi: governanceTokenAbi,
    functionName: 'balanceOf',
    args: [addr(1)],
    blockNumber: BigInt(first.deployBlock),
  })
  expect(balanceAtDeploy).toBe(0n)
})

test('behavior: after SIGKILL the periodic state dump keeps what happened over a second ago', async () => {
  const client = reader(running().url)
  const head = await client.getBlockNumber()
  // Changes made after the last clean (SIGTERM) dump, so only the 1 s interval dump can save them.
  await fetch(running().url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: ['0x5'] }),
  })
  await new Promise((r) => setTimeout(r, 1500))
  process.kill(running().pid ?? 0, 'SIGKILL')
  await running().stop() // only waits for the exit
  anvil = await startAnvil({ port: await getFreePort(), chainId, statePath, quiet: true })
  expect(await reader(anvil.url).getBlockNumber()).toBe(head + 5n)
  const again = await ensureDemoDao({ rpcUrl: anvil.url, chainId, deploymentPath })
  expect(again.token).toBe(first.token)
})

test('behavior: a fresh chain (no code at the recorded address) gets a new, identical deployment', async () => {
  const fresh = await startAnvil({ port: await getFreePort(), chainId, quiet: true })
  try {
    const client = reader(fresh.url)
    expect(await client.getBlockNumber()).toBe(0n)
    const redeployed = await ensureDemoDao({ rpcUrl: fresh.url, chainId, deploymentPath })
    expect(await client.getBlockNumber()).toBeGreaterThan(0n)
    // Deterministic: same deployer nonce, so same address and seed.
    expect(redeployed).toEqual(first)
  } finally {
    await fresh.stop()
  }
})
