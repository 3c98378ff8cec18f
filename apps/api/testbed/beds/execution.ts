// The setup the execution tests share: the demo DAO and its treasury on anvil (real Safe v1.5.0 contracts
// with MultiSendCallOnly and SimulateTxAccessor at their canonical addresses; a 2-of-3 Safe of Ada, Ben and
// Cleo holding ETH, GHD and USDG: devchain's deployDemoTreasury), a real database (PGlite, or
// PostgreSQL under scripts/with-postgres.sh), and the app on them with a clock the tests move. A test file
// calls useExecutionBed() once at its top; the bindings below are live (ES modules), set by its beforeAll.
import {
  LOCAL_CHAIN_ID,
  type ProposalAction,
  type ProposalMessage,
  packSafeSignatures,
  type SafeTransactionJson,
  safeTransactionHashes,
} from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type DemoTreasury, deployDemoTreasury } from '@guildhall/devchain/safe'
import type { FastifyInstance } from 'fastify'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type LocalAccount,
  type PrivateKeyAccount,
  parseAbi,
} from 'viem'
import { afterAll, beforeAll } from 'vitest'
import type { TestDatabase } from '../../src/platform/db/test-database.ts'
import { demoDomain, member, signProposal, signVote } from '../signers.ts'
import { postJson, startTestbed, stopTestbed, testApp } from '../test-app.ts'

export const ada = member(1)
export const ben = member(2)
export const cleo = member(3)
export const iris = member(9)

/** The objection delay the bed's app runs with, and its expiry after it (seconds). */
export const DELAY_SECONDS = 60
export const EXPIRY_SECONDS = 3600

export let anvil: AnvilInstance
export let deployment: DemoDeployment
export let database: TestDatabase
export let app: FastifyInstance
export let demoTreasury: DemoTreasury
export let treasury: Address
let domain: ReturnType<typeof demoDomain>

/** The app's clock (unix seconds); tests move it forward past a proposal's end and the objection delay. */
let clock = Math.floor(Date.now() / 1000)
export const now = () => clock
export const setNow = (seconds: number) => {
  clock = seconds
}

const transport = () => http(anvil.url)
export const publicClient = () => createPublicClient({ transport: transport(), pollingInterval: 50 })

/** Sends a transaction from `account` and waits for it; the receipt (a revert is not thrown). */
async function send(
  account: LocalAccount,
  request: { to: Address; data?: Hex; value?: bigint; gas?: bigint },
) {
  const wallet = createWalletClient({ account, transport: transport() })
  const hash = await wallet.sendTransaction({ chain: null, gas: 1_000_000n, ...request })
  return publicClient().waitForTransactionReceipt({ hash, pollingInterval: 50 })
}

const erc20Abi = parseAbi([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
])

/** An ERC-20 transfer action of `amount` GHD from the treasury to `to`. */
export const tokenTransfer = (to: Address, amount: bigint): ProposalAction => ({
  target: getAddress(deployment.token),
  value: '0',
  data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }),
})
/** An ETH payment action of `wei` to `to`. */
export const ethTransfer = (to: Address, wei: bigint): ProposalAction => ({
  target: to,
  value: String(wei),
  data: '0x',
})

export const post = (url: string, body: unknown) => postJson(app, url, body)
export const get = (url: string) => app.inject({ method: 'GET', url })

/**
 * A passed, final proposal with `actions` (null: a v1 proposal, without any): Ada proposes and votes For at the app's clock, and the clock
 * moves past its end and finality (`delay`: and the objection delay too, so it can be queued; `final`
 * false: the clock stays, the vote still open; `period`: seconds of voting).
 */
export async function passedProposal(
  actions: ProposalAction[] | null,
  { title = 'Pay the roofer', category = 'Operations', delay = true, final = true, period = 3600 } = {},
): Promise<Hex> {
  const snapshot = Number(await publicClient().getBlockNumber({ cacheTime: 0 })) - 1
  const start = clock - 60
  // By default the shortest voting period a proposal may have.
  const end = clock + period
  // null: a proposal of the first version, which carries no actions.
  const v2 = actions === null ? {} : { version: 2, category, changesSafeSettings: false, actions }
  const fields = {
    ...v2,
    title,
    start,
    end,
    snapshot,
    timestamp: clock - 30,
  } as Partial<ProposalMessage> & { snapshot: number }
  const { message, signature, id } = await signProposal(ada, domain, fields)
  const created = await post('/api/proposals', { message, signature })
  if (created.statusCode !== 201) throw new Error(`proposal refused: ${created.body}`)
  const vote = await signVote(ada, domain, { proposal: id, choices: [1], timestamp: clock })
  const voted = await post(`/api/proposals/${id}/votes`, { message: vote.message, signature: vote.signature })
  if (voted.statusCode !== 201) throw new Error(`vote refused: ${voted.body}`)
  if (!final) return id
  // Past the end and the finality delay (5 minutes), and the objection delay when asked.
  setNow(end + 5 * 60 + (delay ? DELAY_SECONDS : 0) + 1)
  return id
}

/** `owner`'s signature of a Safe transaction hash, as execTransaction takes it (ECDSA, v 27/28). */
export const signHash = (owner: PrivateKeyAccount, hash: Hex) => owner.sign({ hash })

const safeAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
  'function nonce() view returns (uint256)',
  'function approveHash(bytes32 hashToApprove)',
])

/** The treasury's nonce now. */
export const safeNonce = async () =>
  Number(await publicClient().readContract({ address: treasury, abi: safeAbi, functionName: 'nonce' }))

/** Has `owner` approve `hash` on chain (Safe's approveHash). */
export const approveHash = (owner: PrivateKeyAccount, hash: Hex) =>
  send(owner, {
    to: treasury,
    data: encodeFunctionData({ abi: safeAbi, functionName: 'approveHash', args: [hash] }),
  })

/**
 * Sends execTransaction of `transaction` with `signatures` (each owner's, sorted by owner as the Safe
 * requires; an approved hash as Safe's v=1 form), from `sender`. The receipt; a revert is returned, not thrown.
 */
export async function execute(
  transaction: SafeTransactionJson,
  confirmations: { owner: Address; signature: Hex | null }[],
  sender: LocalAccount = iris,
) {
  const signatures = packSafeSignatures(confirmations)
  const data = encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [
      transaction.to,
      BigInt(transaction.value),
      transaction.data,
      transaction.operation,
      BigInt(transaction.safeTxGas),
      BigInt(transaction.baseGas),
      BigInt(transaction.gasPrice),
      transaction.gasToken,
      transaction.refundReceiver,
      signatures,
    ],
  })
  return send(sender, { to: treasury, data })
}

/** The safeTxHash of `transaction` on the treasury (core's, which the tests check against the Safe's own). */
export const hashOf = (transaction: Parameters<typeof safeTransactionHashes>[0]['transaction']) =>
  safeTransactionHashes({ chainId: LOCAL_CHAIN_ID, safe: treasury, transaction }).safeTxHash

/** A GHD balance now. */
export const tokenBalance = async (account: Address) =>
  publicClient().readContract({
    address: deployment.token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [account],
  })

/** The app on the bed's chain and database, with the treasury and the bed's clock; `env` adds settings. */
export const executionApp = (env: Record<string, string> = {}) =>
  testApp(
    { anvil, deployment, database },
    {
      env: {
        SIGN_IN: 'off',
        TREASURY_SAFE: treasury,
        EXECUTION_DELAY_SECONDS: String(DELAY_SECONDS),
        EXECUTION_EXPIRY_SECONDS: String(EXPIRY_SECONDS),
        EXECUTION_RATE_LIMIT_PER_MINUTE: '100000',
        ...env,
      },
      now: () => new Date(clock * 1000),
    },
  )

/** Starts the bed before the file's tests and stops it after them. */
export function useExecutionBed() {
  beforeAll(async () => {
    ;({ anvil, deployment, database } = await startTestbed())
    // The demo's treasury: Safe v1.5.0 with MultiSendCallOnly and SimulateTxAccessor, a 2-of-3 Safe
    // (Ada, Ben, Cleo) holding ETH, GHD and USDG.
    demoTreasury = await deployDemoTreasury({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      governanceToken: deployment.token,
    })
    treasury = demoTreasury.safe.address
    await createTestClient({ mode: 'anvil', transport: transport() }).mine({ blocks: 2 })
    domain = demoDomain(deployment)
    app = await executionApp()
  }, 60_000)
  afterAll(() => stopTestbed({ anvil, database }, app))
}
