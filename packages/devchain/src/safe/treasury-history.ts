// Half a year of the demo treasury's life, built on chain so the Treasury page has every kind of row: money
// in (ETH and both tokens, from several senders, over months), payout batches through MultiSendCallOnly, an
// owner change (Dev added, then removed) and a failed execution (ExecutionFailure). Each step's block is
// dated in the past with anvil's clock, which therefore has to start early enough (startAnvil's
// genesisTimestamp); on a chain that starts now the steps keep the chain's own clock, in the same order.
import { encodeMultiSend, OPERATION_DELEGATE_CALL, safeSettingsAbi } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { type Address, encodeFunctionData, erc20Abi, type Hash, parseEther, parseUnits } from 'viem'
import { anvilAccounts } from '../accounts.ts'
import { safeAbi, safeContractAddresses } from './contracts.ts'
import { type ChainTarget, type Clients, clients, successfulReceipt } from './relayer.ts'
import type { SafeOwnerSigner } from './signatures.ts'
import { DEMO_USDG, type DemoTreasury, deployDemoTreasury } from './treasury.ts'
import { executeSafeTransaction, type SafeTransactionFields } from './versions.ts'

const DAY = 86_400
/**
 * How far back the demo chain's clock starts (startAnvil's genesisTimestamp) for the treasury's funding to
 * date from before its first step.
 */
export const DEMO_TREASURY_AGE_DAYS = 200

/** Payees of the demo's grants: addresses outside the demo's accounts (nobody holds their keys). */
export const DEMO_PAYEES = {
  docsWriter: '0x000000000000000000000000000000000000d0C5',
  auditor: '0x00000000000000000000000000000000000A0d17',
  events: '0x0000000000000000000000000000000000E7e475',
} as const satisfies Record<string, Address>

// removeOwner names the owner before the removed one in Safe's linked list; the first one's is the sentinel.
const SENTINEL_OWNER: Address = '0x0000000000000000000000000000000000000001'

function account(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
}

type Step =
  | { kind: 'eth-in'; from: number; amount: bigint }
  | { kind: 'ghd-in'; amount: bigint }
  | { kind: 'usdg-in'; amount: bigint }
  | { kind: 'payout'; signers: readonly number[]; calls: { to: Address; usdg?: bigint; eth?: bigint }[] }
  | { kind: 'add-owner'; signers: readonly number[]; owner: number }
  | { kind: 'remove-owner'; signers: readonly number[]; owner: number }
  | { kind: 'failed-execution'; signers: readonly number[]; usdg: bigint }

const usdg = (amount: string) => parseUnits(amount, DEMO_USDG.decimals)

/** The history after the funding, by days before now. Accounts by index: 0 deployer, 1 Ada, 2 Ben, 3 Cleo, 4 Dev. */
export const DEMO_TREASURY_HISTORY: readonly { daysAgo: number; step: Step }[] = [
  { daysAgo: 172, step: { kind: 'eth-in', from: 2, amount: parseEther('2') } },
  { daysAgo: 165, step: { kind: 'usdg-in', amount: usdg('50000') } },
  {
    daysAgo: 150,
    step: {
      kind: 'payout',
      signers: [1, 2],
      calls: [
        { to: DEMO_PAYEES.docsWriter, usdg: usdg('12000') },
        { to: DEMO_PAYEES.auditor, usdg: usdg('8000'), eth: parseEther('1.5') },
      ],
    },
  },
  { daysAgo: 128, step: { kind: 'add-owner', signers: [1, 3], owner: 4 } },
  { daysAgo: 115, step: { kind: 'eth-in', from: 3, amount: parseEther('0.5') } },
  { daysAgo: 104, step: { kind: 'usdg-in', amount: usdg('25000') } },
  { daysAgo: 96, step: { kind: 'remove-owner', signers: [2, 4], owner: 4 } },
  // More USDG than the Safe holds, with safeTxGas > 0: the Safe logs ExecutionFailure and uses the nonce.
  { daysAgo: 81, step: { kind: 'failed-execution', signers: [1, 2], usdg: usdg('1000000') } },
  { daysAgo: 70, step: { kind: 'ghd-in', amount: parseEther('5000') } },
  {
    daysAgo: 58,
    step: {
      kind: 'payout',
      signers: [2, 3],
      calls: [
        { to: DEMO_PAYEES.docsWriter, usdg: usdg('15000') },
        { to: DEMO_PAYEES.events, eth: parseEther('2') },
      ],
    },
  },
  { daysAgo: 33, step: { kind: 'eth-in', from: 1, amount: parseEther('1') } },
  { daysAgo: 27, step: { kind: 'usdg-in', amount: usdg('30000') } },
  {
    daysAgo: 12,
    step: { kind: 'payout', signers: [1, 3], calls: [{ to: DEMO_PAYEES.events, usdg: usdg('9500') }] },
  },
]

/** Dates the next block at `at`; a chain already past it keeps its own clock (never pushed ahead of now). */
async function dateNextBlock(c: Clients, at: number) {
  const head = await c.publicClient.getBlock({ blockTag: 'latest' })
  if (at > Number(head.timestamp)) await c.testClient.setNextBlockTimestamp({ timestamp: BigInt(at) })
}

async function runStep(target: ChainTarget, c: Clients, treasury: DemoTreasury, step: Step): Promise<void> {
  const safe = treasury.safe.address
  const [governanceToken] = treasury.tokens
  if (!governanceToken) throw new Error('the demo treasury has no governance token')
  const signers = (indexes: readonly number[]): SafeOwnerSigner[] => indexes.map(account)
  const execute = async (indexes: readonly number[], fields: SafeTransactionFields, what: string) => {
    const executed = await executeSafeTransaction(target, { safe, signers: signers(indexes), ...fields })
    if (executed.status !== 'success') throw new Error(`demo treasury: ${what} reverted`)
  }
  let hash: Hash
  switch (step.kind) {
    case 'eth-in':
      hash = await c.walletClient.sendTransaction({
        account: account(step.from),
        to: safe,
        value: step.amount,
      })
      return void (await successfulReceipt(c, hash, 'sending ETH to the demo treasury'))
    case 'ghd-in':
      // Minted by account 0, the token's owner: no member's balance or voting power moves.
      hash = await c.walletClient.writeContract({
        account: account(0),
        address: governanceToken,
        abi: governanceTokenAbi,
        functionName: 'mint',
        args: [safe, step.amount],
      })
      return void (await successfulReceipt(c, hash, 'minting GHD to the demo treasury'))
    case 'usdg-in':
      hash = await c.walletClient.writeContract({
        account: account(0),
        address: treasury.usdg,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [safe, step.amount],
      })
      return void (await successfulReceipt(c, hash, 'sending USDG to the demo treasury'))
    case 'payout': {
      const calls = step.calls.flatMap(({ to, usdg: tokens, eth }) => [
        ...(tokens
          ? [
              {
                target: treasury.usdg,
                value: 0n,
                data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, tokens] }),
              },
            ]
          : []),
        ...(eth ? [{ target: to, value: eth, data: '0x' as const }] : []),
      ])
      const { multiSendCallOnly } = safeContractAddresses()
      return execute(
        step.signers,
        { to: multiSendCallOnly, operation: OPERATION_DELEGATE_CALL, data: encodeMultiSend(calls) },
        'a payout batch',
      )
    }
    case 'add-owner':
      return execute(
        step.signers,
        {
          to: safe,
          data: encodeFunctionData({
            abi: safeSettingsAbi,
            functionName: 'addOwnerWithThreshold',
            args: [account(step.owner), BigInt(treasury.safe.threshold)],
          }),
        },
        'adding an owner',
      )
    case 'remove-owner':
      // addOwnerWithThreshold puts the new owner first, so its predecessor is the sentinel.
      return execute(
        step.signers,
        {
          to: safe,
          data: encodeFunctionData({
            abi: safeSettingsAbi,
            functionName: 'removeOwner',
            args: [SENTINEL_OWNER, account(step.owner), BigInt(treasury.safe.threshold)],
          }),
        },
        'removing an owner',
      )
    case 'failed-execution':
      return execute(
        step.signers,
        {
          to: treasury.usdg,
          data: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [DEMO_PAYEES.auditor, step.usdg],
          }),
          safeTxGas: 100_000n,
        },
        'the failed execution',
      )
  }
}

/**
 * Builds DEMO_TREASURY_HISTORY on a newly funded demo treasury, each step dated `daysAgo` before `now`
 * (unix seconds), then dates one more block at `now` so the chain's clock is back to the present.
 */
export async function buildDemoTreasuryHistory(
  target: ChainTarget & { treasury: DemoTreasury; now?: number },
): Promise<void> {
  const c = clients(target)
  const now = target.now ?? Math.floor(Date.now() / 1000)
  for (const { daysAgo, step } of DEMO_TREASURY_HISTORY) {
    await dateNextBlock(c, now - daysAgo * DAY)
    await runStep(target, c, target.treasury, step)
  }
  const head = await c.publicClient.getBlock({ blockTag: 'latest' })
  if (Number(head.timestamp) < now) {
    await c.testClient.setNextBlockTimestamp({ timestamp: BigInt(now) })
    await c.testClient.mine({ blocks: 1 })
  }
}

/**
 * The demo treasury with its history: deployDemoTreasury, then, while the Safe has executed nothing yet
 * (nonce 0), buildDemoTreasuryHistory. Calling it again sends nothing.
 */
export async function ensureDemoTreasury(
  target: ChainTarget & { governanceToken: Address; now?: number },
): Promise<DemoTreasury> {
  const treasury = await deployDemoTreasury(target)
  const nonce = await clients(target).publicClient.readContract({
    address: treasury.safe.address,
    abi: safeAbi,
    functionName: 'nonce',
  })
  if (nonce === 0n) await buildDemoTreasuryHistory({ ...target, treasury })
  return treasury
}
