// The demo DAO's treasury: a 2-of-3 Safe (Ada, Ben, Cleo) holding ETH, the governance token (GHD) and a
// second ERC-20 (USDG, 6 decimals), beside the sign-in Safes of deploy.ts.
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import {
  type Address,
  concatHex,
  encodeDeployData,
  getContractAddress,
  type Hash,
  parseEther,
  parseEventLogs,
  parseUnits,
} from 'viem'
import { anvilAccounts } from '../accounts.ts'
import { plainTokenAbi, plainTokenBytecode } from '../generated/plain-token.ts'
import { SAFE_SINGLETON_FACTORY, safeAbi, ZERO_SALT } from './contracts.ts'
import {
  assertSafeCreated,
  type DemoSafe,
  type DemoSafeSpec,
  deploySafes,
  sendSafeCreation,
} from './deploy.ts'
import { type ChainTarget, type Clients, clients, safeRelayer, successfulReceipt } from './relayer.ts'

/** Its own salt nonce, so it is neither of the sign-in Safes (1 and 2) whatever its owners. */
export const demoTreasurySafe = {
  owners: [1, 2, 3],
  threshold: 2,
  saltNonce: 3n,
} as const satisfies DemoSafeSpec

/** The demo's second token: its whole supply goes to anvil account 0 (the deployer) at deployment. */
export const DEMO_USDG = {
  name: 'Guildhall Demo Dollar',
  symbol: 'USDG',
  decimals: 6,
  supply: parseUnits('10000000', 6),
} as const

/** What the treasury receives when it is created: from account 0, which also owns GHD's minting. */
export const DEMO_TREASURY_FUNDING = {
  eth: parseEther('40'),
  ghd: parseEther('50000'),
  usdg: parseUnits('250000', DEMO_USDG.decimals),
} as const

export type DemoTreasury = {
  chainId: number
  safe: DemoSafe
  /** The governance token (GHD) and USDG, in that order. */
  tokens: Address[]
  usdg: Address
  /** The block the Safe was created in: where an index of it starts. */
  startBlock: number
}

function deployer(): Address {
  const found = anvilAccounts[0]
  if (!found) throw new Error('no anvil account 0')
  return found.address
}

function usdgInitCode() {
  return encodeDeployData({
    abi: plainTokenAbi,
    bytecode: plainTokenBytecode,
    args: [DEMO_USDG.name, DEMO_USDG.symbol, DEMO_USDG.decimals, deployer(), DEMO_USDG.supply],
  })
}

/** USDG's address: CREATE2 through Safe's singleton factory, so no account's nonce decides it. */
export function demoUsdgAddress(): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: SAFE_SINGLETON_FACTORY,
    salt: ZERO_SALT,
    bytecode: usdgInitCode(),
  })
}

async function ensureUsdg(c: Clients): Promise<Address> {
  const address = demoUsdgAddress()
  const code = await c.publicClient.getCode({ address })
  if (code && code !== '0x') return address
  const hash = await c.walletClient.sendTransaction({
    account: safeRelayer(),
    to: SAFE_SINGLETON_FACTORY,
    data: concatHex([ZERO_SALT, usdgInitCode()]),
  })
  await successfulReceipt(c, hash, 'deploying USDG')
  return address
}

/** The block of the Safe's `SafeSetup` event: its creation. */
async function creationBlock(c: Clients, safe: Address): Promise<number> {
  const logs = await c.publicClient.getLogs({
    address: safe,
    event: safeAbi.find((item) => item.type === 'event' && item.name === 'SafeSetup'),
    fromBlock: 0n,
    toBlock: 'latest',
  })
  const [setup] = parseEventLogs({ abi: safeAbi, eventName: 'SafeSetup', logs })
  if (!setup) throw new Error(`Safe ${safe} has no SafeSetup event`)
  return Number(setup.blockNumber)
}

/**
 * Deploys the Safe contracts (deploySafes), USDG and the treasury Safe, and funds a new treasury with ETH,
 * GHD (minted: account 0 owns the demo token) and USDG from account 0. `governanceToken` is the demo DAO's
 * token (deployDemoDao). Anything already there is left alone, so calling it twice sends nothing more.
 * Changes account 0's nonce only when it funds a new treasury, after the demo token exists.
 */
export async function deployDemoTreasury(
  target: ChainTarget & { governanceToken: Address },
): Promise<DemoTreasury> {
  const { chainId, governanceToken } = target
  await deploySafes(target)
  const c = clients(target)
  const usdg = await ensureUsdg(c)
  const { safe, creation } = await sendSafeCreation(c, demoTreasurySafe)
  if (creation) {
    await successfulReceipt(c, creation, 'creating the demo treasury Safe')
    const from = deployer()
    const funding: Hash[] = [
      await c.walletClient.sendTransaction({
        account: from,
        to: safe.address,
        value: DEMO_TREASURY_FUNDING.eth,
      }),
      await c.walletClient.writeContract({
        account: from,
        address: governanceToken,
        abi: governanceTokenAbi,
        functionName: 'mint',
        args: [safe.address, DEMO_TREASURY_FUNDING.ghd],
      }),
      await c.walletClient.writeContract({
        account: from,
        address: usdg,
        abi: plainTokenAbi,
        functionName: 'transfer',
        args: [safe.address, DEMO_TREASURY_FUNDING.usdg],
      }),
    ]
    for (const hash of funding) await successfulReceipt(c, hash, 'funding the demo treasury')
  }
  await assertSafeCreated(c, safe)
  return {
    chainId,
    safe,
    tokens: [governanceToken, usdg],
    usdg,
    startBlock: await creationBlock(c, safe.address),
  }
}
