import { encodeMultiSend } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  http,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { type DemoDeployment, deployDemoDao } from './demo-dao.ts'
import {
  DEMO_PAYEES,
  DEMO_TREASURY_AGE_DAYS,
  DEMO_TREASURY_FUNDING,
  DEMO_TREASURY_HISTORY,
  DEMO_USDG,
  type DemoTreasury,
  demoUsdgAddress,
  deployDemoTreasury,
  deploySafes,
  ensureDemoTreasury,
  executeSafeTransaction,
  safeAbi,
  safeRelayer,
} from './safe.ts'

const chainId = 31337
const anvils: AnvilInstance[] = []
let rpcUrl: string
let demo: DemoDeployment
let treasury: DemoTreasury

function address(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
}
const [deployer, ada, ben, cleo] = [0, 1, 2, 3].map(address) as [Address, Address, Address, Address]
// Payees outside the demo's accounts.
const payeeA: Address = '0x00000000000000000000000000000000000a11ce'
const payeeB: Address = '0x0000000000000000000000000000000000000b0b'

const reader = (url: string) => createPublicClient({ transport: http(url), cacheTime: 0 })

async function freshChain(): Promise<{ url: string; demo: DemoDeployment }> {
  const anvil = await startAnvil({ port: await getFreePort(), chainId, quiet: true })
  anvils.push(anvil)
  return { url: anvil.url, demo: await deployDemoDao({ rpcUrl: anvil.url, chainId }) }
}

beforeAll(async () => {
  ;({ url: rpcUrl, demo } = await freshChain())
  treasury = await deployDemoTreasury({ rpcUrl, chainId, governanceToken: demo.token })
}, 60_000)
afterAll(async () => {
  await Promise.all(anvils.map((a) => a.stop()))
})

function safeNonce(safe: Address) {
  return reader(rpcUrl).readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
}
const tokenBalance = (token: Address, holder: Address) => tokenBalanceOn(rpcUrl, token, holder)
function tokenBalanceOn(url: string, token: Address, holder: Address) {
  return reader(url).readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  })
}

const usdgTransfer = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })

describe('the demo treasury', () => {
  test('a 2-of-3 Safe of Ada, Ben and Cleo with its own salt, funded with ETH, GHD and USDG; its start block is its creation', async () => {
    const client = reader(rpcUrl)
    const signIn = await deploySafes({ rpcUrl, chainId })
    expect(treasury.safe).toEqual({ address: treasury.safe.address, owners: [ada, ben, cleo], threshold: 2 })
    expect([signIn.oneOfOne.address, signIn.twoOfThree.address]).not.toContain(treasury.safe.address)
    const read = (functionName: 'getOwners' | 'getThreshold' | 'VERSION') =>
      client.readContract({ address: treasury.safe.address, abi: safeAbi, functionName })
    expect(await read('getOwners')).toEqual([ada, ben, cleo])
    expect(await read('getThreshold')).toBe(2n)
    expect(await read('VERSION')).toBe('1.5.0')

    expect(treasury.tokens).toEqual([demo.token, treasury.usdg])
    expect(treasury.usdg).toBe(demoUsdgAddress())
    const usdg = { address: treasury.usdg, abi: erc20Abi } as const
    expect(await client.readContract({ ...usdg, functionName: 'symbol' })).toBe('USDG')
    expect(await client.readContract({ ...usdg, functionName: 'decimals' })).toBe(6)
    expect(await client.readContract({ ...usdg, functionName: 'totalSupply' })).toBe(DEMO_USDG.supply)

    expect(await client.getBalance({ address: treasury.safe.address })).toBe(DEMO_TREASURY_FUNDING.eth)
    expect(await tokenBalance(demo.token, treasury.safe.address)).toBe(DEMO_TREASURY_FUNDING.ghd)
    expect(await tokenBalance(treasury.usdg, treasury.safe.address)).toBe(DEMO_TREASURY_FUNDING.usdg)
    expect(await tokenBalance(treasury.usdg, deployer)).toBe(DEMO_USDG.supply - DEMO_TREASURY_FUNDING.usdg)
    // Minted by the token's owner: no member's balance (or voting power) moved.
    for (const member of demo.members) {
      expect(await tokenBalance(demo.token, member.address)).toBe(BigInt(member.balance))
    }

    const [setup] = parseEventLogs({
      abi: safeAbi,
      eventName: 'SafeSetup',
      logs: await client.getLogs({ address: treasury.safe.address, fromBlock: 0n }),
    })
    expect(setup?.blockNumber).toBe(BigInt(treasury.startBlock))
    expect(setup?.args.owners).toEqual([ada, ben, cleo])
  })

  test('deploying again sends nothing and returns the same treasury; a fresh chain gets the same addresses', async () => {
    const client = reader(rpcUrl)
    const nonces = () =>
      Promise.all([deployer, safeRelayer().address].map((a) => client.getTransactionCount({ address: a })))
    const before = await nonces()
    expect(await deployDemoTreasury({ rpcUrl, chainId, governanceToken: demo.token })).toEqual(treasury)
    expect(await nonces()).toEqual(before)

    const other = await freshChain()
    const again = await deployDemoTreasury({ rpcUrl: other.url, chainId, governanceToken: other.demo.token })
    expect(again).toEqual(treasury)
  }, 60_000)
})

describe('executing the treasury’s transactions (executeSafeTransaction)', () => {
  test('two owners execute a batch through the canonical MultiSendCallOnly (DELEGATECALL); the hash is the ExecutionSuccess topic and the nonce advances', async () => {
    const safe = treasury.safe.address
    const client = reader(rpcUrl)
    const nonce = await safeNonce(safe)
    const ethBefore = await client.getBalance({ address: payeeB })
    const executed = await executeSafeTransaction(
      { rpcUrl, chainId },
      {
        safe,
        signers: [cleo, ada],
        to: (await deploySafes({ rpcUrl, chainId })).multiSendCallOnly,
        operation: 1,
        data: encodeMultiSend([
          { target: treasury.usdg, value: 0n, data: usdgTransfer(payeeA, parseUnits('1200', 6)) },
          { target: payeeB, value: parseEther('1.5'), data: '0x' },
        ]),
      },
    )
    expect(executed).toMatchObject({ nonce, status: 'success' })
    const receipt = await client.getTransactionReceipt({ hash: executed.transactionHash })
    const [success] = parseEventLogs({ abi: safeAbi, eventName: 'ExecutionSuccess', logs: receipt.logs })
    expect(success?.args.txHash).toBe(executed.safeTxHash)
    expect(await safeNonce(safe)).toBe(nonce + 1n)
    expect(await tokenBalance(treasury.usdg, payeeA)).toBe(parseUnits('1200', 6))
    expect(await client.getBalance({ address: payeeB })).toBe(ethBefore + parseEther('1.5'))
  })

  test('a failing call with safeTxGas 0 reverts and keeps the nonce; with safeTxGas > 0 it logs ExecutionFailure and uses the nonce', async () => {
    const safe = treasury.safe.address
    const tooMuch = { to: treasury.usdg, data: usdgTransfer(payeeA, DEMO_USDG.supply) }
    const nonce = await safeNonce(safe)
    const reverted = await executeSafeTransaction(
      { rpcUrl, chainId },
      { safe, signers: [ada, ben], ...tooMuch },
    )
    expect(reverted.status).toBe('reverted')
    expect(await safeNonce(safe)).toBe(nonce)

    const failed = await executeSafeTransaction(
      { rpcUrl, chainId },
      { safe, signers: [ada, ben], ...tooMuch, safeTxGas: 100_000n },
    )
    expect(failed).toMatchObject({ nonce, status: 'success' })
    const receipt = await reader(rpcUrl).getTransactionReceipt({ hash: failed.transactionHash })
    const [failure] = parseEventLogs({ abi: safeAbi, eventName: 'ExecutionFailure', logs: receipt.logs })
    expect(failure?.args.txHash).toBe(failed.safeTxHash)
    expect(await safeNonce(safe)).toBe(nonce + 1n)
    expect(await tokenBalance(treasury.usdg, payeeA)).toBe(parseUnits('1200', 6))
  })
})

test('the treasury’s GHD is minted by the token’s owner, account 0: the supply is the members’ plus the treasury’s', async () => {
  const client = reader(rpcUrl)
  expect(
    await client.readContract({ address: demo.token, abi: governanceTokenAbi, functionName: 'owner' }),
  ).toBe(deployer)
  const supply = demo.members.reduce((sum, m) => sum + BigInt(m.balance), 0n) + DEMO_TREASURY_FUNDING.ghd
  expect(
    await client.readContract({ address: demo.token, abi: governanceTokenAbi, functionName: 'totalSupply' }),
  ).toBe(supply)
})

describe('the demo treasury’s history (ensureDemoTreasury)', () => {
  const DAY = 86_400
  let url: string
  let history: DemoTreasury
  let governanceToken: Address
  const now = Math.floor(Date.now() / 1000)

  beforeAll(async () => {
    // As `npm start` runs it: a chain whose clock starts before the treasury's first day.
    const anvil = await startAnvil({
      port: await getFreePort(),
      chainId,
      quiet: true,
      genesisTimestamp: now - DEMO_TREASURY_AGE_DAYS * DAY,
    })
    anvils.push(anvil)
    url = anvil.url
    governanceToken = (await deployDemoDao({ rpcUrl: url, chainId })).token
    history = await ensureDemoTreasury({ rpcUrl: url, chainId, governanceToken, now })
  }, 60_000)

  test('every kind of row is on chain: money in from several senders, payout batches, an owner added then removed, a failed execution', async () => {
    const client = reader(url)
    const safe = history.safe.address
    const safeLogs = parseEventLogs({
      abi: safeAbi,
      logs: await client.getLogs({ address: safe, fromBlock: 0n }),
    })
    const count = (name: string) => safeLogs.filter((log) => log.eventName === name).length
    expect(
      Object.fromEntries(
        [
          'SafeSetup',
          'SafeReceived',
          'ExecutionSuccess',
          'ExecutionFailure',
          'AddedOwner',
          'RemovedOwner',
        ].map((name) => [name, count(name)]),
      ),
    ).toEqual({
      SafeSetup: 1,
      SafeReceived: 4,
      ExecutionSuccess: 5,
      ExecutionFailure: 1,
      AddedOwner: 1,
      RemovedOwner: 1,
    })
    const senders = new Set(
      safeLogs.flatMap((log) => (log.eventName === 'SafeReceived' ? [log.args.sender] : [])),
    )
    expect(senders).toEqual(new Set([deployer, ada, ben, cleo]))
    expect(safeLogs.find((log) => log.eventName === 'AddedOwner')?.args).toEqual({ owner: address(4) })

    const transfers = async (token: Address) =>
      parseEventLogs({
        abi: erc20Abi,
        eventName: 'Transfer',
        logs: await client.getLogs({ address: token, fromBlock: 0n }),
      })
    const usdgTransfers = await transfers(history.usdg)
    expect(usdgTransfers.filter((t) => t.args.to === safe)).toHaveLength(4)
    expect(usdgTransfers.filter((t) => t.args.from === safe).map((t) => [t.args.to, t.args.value])).toEqual([
      [DEMO_PAYEES.docsWriter, parseUnits('12000', 6)],
      [DEMO_PAYEES.auditor, parseUnits('8000', 6)],
      [DEMO_PAYEES.docsWriter, parseUnits('15000', 6)],
      [DEMO_PAYEES.events, parseUnits('9500', 6)],
    ])
    expect((await transfers(governanceToken)).filter((t) => t.args.to === safe)).toHaveLength(2)

    // What is left: the funding, plus what came in, less the payouts (ETH leaves inside batches unlogged).
    expect(await client.getBalance({ address: safe })).toBe(parseEther('40'))
    expect(await client.getBalance({ address: DEMO_PAYEES.events })).toBe(parseEther('2'))
    expect(await tokenBalanceOn(url, history.usdg, safe)).toBe(parseUnits('310500', 6))
    expect(await tokenBalanceOn(url, governanceToken, safe)).toBe(parseEther('55000'))
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners' })).toEqual([
      ada,
      ben,
      cleo,
    ])
    expect(await client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })).toBe(6n)
  })

  test('the rows span months, in order, and the chain’s clock is back at the present afterwards', async () => {
    const client = reader(url)
    const logs = await client.getLogs({ address: history.safe.address, fromBlock: 0n })
    const times: number[] = []
    for (const blockNumber of new Set(logs.map((log) => log.blockNumber))) {
      times.push(Number((await client.getBlock({ blockNumber })).timestamp))
    }
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times[0]).toBeLessThan(now - 190 * DAY)
    const months = new Set(times.map((t) => new Date(t * 1000).toISOString().slice(0, 7)))
    expect(months.size).toBeGreaterThanOrEqual(6)
    const lastStep = DEMO_TREASURY_HISTORY.at(-1)?.daysAgo ?? 0
    expect(Math.max(...times)).toBeGreaterThanOrEqual(now - lastStep * DAY)
    expect(Math.max(...times)).toBeLessThan(now - (lastStep - 1) * DAY)
    const head = Number((await client.getBlock({ blockTag: 'latest' })).timestamp)
    expect(head).toBeGreaterThanOrEqual(now)
    expect(head).toBeLessThan(now + 60)
  })

  test('on a chain whose clock starts now (an older demo chain) the same rows land in order, never dated ahead of the wall clock', async () => {
    const other = await freshChain()
    const started = Math.floor(Date.now() / 1000)
    const again = await ensureDemoTreasury({ rpcUrl: other.url, chainId, governanceToken: other.demo.token })
    const client = reader(other.url)
    const logs = await client.getLogs({ address: again.safe.address, fromBlock: 0n })
    expect(
      parseEventLogs({ abi: safeAbi, logs }).filter((log) => log.eventName === 'ExecutionFailure'),
    ).toHaveLength(1)
    const head = Number((await client.getBlock({ blockTag: 'latest' })).timestamp)
    expect(head).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1)
    expect(head).toBeGreaterThanOrEqual(started - 1)
  }, 60_000)

  test('a second run sends nothing and returns the same treasury', async () => {
    const client = reader(url)
    const before = await client.getBlockNumber()
    expect(await ensureDemoTreasury({ rpcUrl: url, chainId, governanceToken })).toEqual(history)
    expect(await client.getBlockNumber()).toBe(before)
  })
})
