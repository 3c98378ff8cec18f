// A DAO treasury Safe on the demo chain for the treasury tests: a 2-of-3 Safe (Ada, Ben, Cleo) of any release,
// and a history with every row kind, each step done for real (signed by the owners, mined by anvil).
import {
  encodeMultiSend,
  LOCAL_CHAIN_ID,
  MULTI_SEND_CALL_ONLY,
  MULTICALL3_ADDRESS,
  safeSettingsAbi,
} from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { createSafeOfVersion, executeSafeTransaction, type SafeVersion } from '@guildhall/devchain/safe'
import {
  type Address,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hash,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  parseEther,
} from 'viem'
import { demoAccount } from './demo-token.ts'
import { member } from './signers.ts'

const devchain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1'] } },
})
const multicall3Abi = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'function aggregate3(Call3[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
])

export const owners = [demoAccount(1), demoAccount(2), demoAccount(3)]
export const finn = demoAccount(6)
/** Iris holds no tokens: an owner the members directory does not list. */
export const iris = demoAccount(9)

/** multiSend(bytes) of CALLs (core's packing, as a proposal's actions are batched). */
const multiSend = (calls: { to: Address; value: bigint; data: Hex }[]): Hex =>
  encodeMultiSend(calls.map(({ to, value, data }) => ({ target: to, value, data })))

const transferData = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi: governanceTokenAbi, functionName: 'transfer', args: [to, amount] })

/** What the history holds after `seedTreasuryHistory`, for the tests to compare. */
export type SeededTreasury = {
  safe: Address
  version: SafeVersion
  /** The Safe's creation block. */
  createdAt: number
  batch: { safeTxHash: Hash; transactionHash: Hash; nonce: number }
  ownerChange: { safeTxHash: Hash; nonce: number }
  failed: { safeTxHash: Hash; nonce: number }
  relayed: { safeTxHash: Hash; transactionHash: Hash; nonce: number }
}

export const SEEDED = {
  ethIn: parseEther('2'),
  tokensIn: parseEther('100'),
  ethPaid: parseEther('0.5'),
  tokensPaid: parseEther('10'),
  /** Sent inside a batch relayed through Multicall3: no event shows it on an L1 Safe. */
  ethHidden: parseEther('0.25'),
}

/**
 * A 2-of-3 Safe of `version` and its history: 2 ETH and 100 GHD in (Ada), a batch paying Finn 0.5 ETH and
 * 10 GHD, Iris (no tokens: not a member) added as an owner (threshold kept), a failed execution (a transfer beyond the balance with
 * safeTxGas > 0: ExecutionFailure, the nonce used), and a batch relayed through Multicall3 sending Finn
 * 0.25 ETH (its input is Multicall3's, so on an L1 Safe nothing but the balance shows it).
 */
export async function seedTreasuryHistory(
  chain: { client: PublicClient; url: string; deployment: DemoDeployment },
  { version, l2 = false, saltNonce }: { version: SafeVersion; l2?: boolean; saltNonce: bigint },
): Promise<SeededTreasury> {
  const target = { rpcUrl: chain.url, chainId: LOCAL_CHAIN_ID }
  const token = chain.deployment.token
  // The release's own MultiSendCallOnly, deployed with its Safe contracts.
  const multiSendCallOnly = MULTI_SEND_CALL_ONLY[version].address
  const created = await createSafeOfVersion(target, { version, l2, owners, threshold: 2, saltNonce })
  const safe = created.address
  const createdAt = Number(
    (await chain.client.getTransactionReceipt({ hash: created.transactionHash })).blockNumber,
  )
  const ada = createWalletClient({ account: member(1), chain: devchain, transport: http(chain.url) })
  const mined = async (hash: Hash) => {
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error(`${hash} reverted`)
  }
  await mined(await ada.sendTransaction({ to: safe, value: SEEDED.ethIn }))
  await mined(
    await ada.writeContract({
      address: token,
      abi: governanceTokenAbi,
      functionName: 'transfer',
      args: [safe, SEEDED.tokensIn],
    }),
  )
  const signers = owners.slice(0, 2)
  const ok = async (result: Awaited<ReturnType<typeof executeSafeTransaction>>) => {
    if (result.status !== 'success') throw new Error(`Safe transaction ${result.safeTxHash} reverted`)
    return { ...result, nonce: Number(result.nonce) }
  }
  const batch = await ok(
    await executeSafeTransaction(target, {
      safe,
      signers,
      to: multiSendCallOnly,
      operation: 1,
      data: multiSend([
        { to: finn, value: SEEDED.ethPaid, data: '0x' },
        { to: token, value: 0n, data: transferData(finn, SEEDED.tokensPaid) },
      ]),
    }),
  )
  const ownerChange = await ok(
    await executeSafeTransaction(target, {
      safe,
      signers,
      to: safe,
      data: encodeFunctionData({
        abi: safeSettingsAbi,
        functionName: 'addOwnerWithThreshold',
        args: [iris, 2n],
      }),
    }),
  )
  const failed = await ok(
    await executeSafeTransaction(target, {
      safe,
      signers,
      to: token,
      data: transferData(finn, parseEther('1000000')),
      safeTxGas: 100_000n,
    }),
  )
  const relayed = await ok(
    await executeSafeTransaction(target, {
      safe,
      signers,
      to: multiSendCallOnly,
      operation: 1,
      data: multiSend([{ to: finn, value: SEEDED.ethHidden, data: '0x' }]),
      relay: (execCalldata) => ({
        to: MULTICALL3_ADDRESS,
        data: encodeFunctionData({
          abi: multicall3Abi,
          functionName: 'aggregate3',
          args: [[{ target: safe, allowFailure: false, callData: execCalldata }]],
        }),
      }),
    }),
  )
  return { safe, version, createdAt, batch, ownerChange, failed, relayed }
}
