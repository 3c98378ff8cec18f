// What the execution area reads from the DAO's Safe on its chain: its nonce, owners and threshold, on-chain
// approved hashes, the executions since a block (in order: each used one nonce), and a simulation.
import { MULTI_SEND_CALL_ONLY, type MultiSendVersion } from '@guildhall/core'
import {
  type Address,
  decodeAbiParameters,
  decodeErrorResult,
  encodeFunctionData,
  type Hex,
  keccak256,
  type PublicClient,
  parseAbi,
  slice,
  toEventSelector,
} from 'viem'
import { sharedPerBlock } from '../platform/shared-per-block.ts'

const safeAbi = parseAbi([
  'function nonce() view returns (uint256)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function VERSION() view returns (string)',
  'function approvedHashes(address owner, bytes32 hash) view returns (uint256)',
  'function simulate(address targetContract, bytes calldataPayload) returns (bytes response)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
])
const simulateTxAccessorAbi = parseAbi([
  'function simulate(address to, uint256 value, bytes data, uint8 operation) returns (uint256 estimate, bool success, bytes returnData)',
])
// The hash is `indexed` from v1.4.1 on and in the data in v1.3.0; the topic is the same for both.
const EXECUTION_SUCCESS = toEventSelector('ExecutionSuccess(bytes32,uint256)')
const EXECUTION_FAILURE = toEventSelector('ExecutionFailure(bytes32,uint256)')

/**
 * SimulateTxAccessor, per Safe release, at its canonical address (safe-deployments). It runs by
 * DELEGATECALL from the Safe, so any release's accessor simulates any Safe: the first one deployed is used.
 */
const SIMULATE_TX_ACCESSORS: readonly Address[] = [
  '0x07EfA797c55B5DdE3698d876b277aBb6B893654C',
  '0x3d4BA2E0884aa488718476ca2FB8Efc291A46199',
  '0x59AD6735bCd8152B84860Cb256dD9e96b85F69Da',
]

export type SafeState = { nonce: number; owners: Address[]; threshold: number; blockNumber: bigint }

/** The Safe's nonce, owners and threshold at one block (the latest when not given). */
export async function readSafe(client: PublicClient, safe: Address, block?: bigint): Promise<SafeState> {
  const blockNumber = block ?? (await client.getBlockNumber({ cacheTime: 0 }))
  const [nonce, owners, threshold] = await Promise.all([
    client.readContract({ address: safe, abi: safeAbi, functionName: 'nonce', blockNumber }),
    client.readContract({ address: safe, abi: safeAbi, functionName: 'getOwners', blockNumber }),
    client.readContract({ address: safe, abi: safeAbi, functionName: 'getThreshold', blockNumber }),
  ])
  return { nonce: Number(nonce), owners: [...owners], threshold: Number(threshold), blockNumber }
}

/** One shared reader per client and Safe, so the requests of one app at one block share their read. */
const readersByClient = new WeakMap<PublicClient, Map<Address, (block: bigint) => Promise<SafeState>>>()

/**
 * The Safe at the chain's head, for reads many members repeat (a proposal's execution panel): the
 * requests at the same block share one read of the Safe (`sharedPerBlock`). Writes read it themselves.
 */
export async function readSafeAtHead(client: PublicClient, safe: Address): Promise<SafeState> {
  const readers = readersByClient.get(client) ?? new Map()
  readersByClient.set(client, readers)
  const atBlock = readers.get(safe) ?? sharedPerBlock((block) => readSafe(client, safe, block))
  readers.set(safe, atBlock)
  return atBlock(await client.getBlockNumber({ cacheTime: 0 }))
}

/** The MultiSendCallOnly of the Safe's release (1.3.0, 1.4.1 or 1.5.0); null for another release. */
export async function multiSendFor(client: PublicClient, safe: Address): Promise<Address | null> {
  const version = await client.readContract({ address: safe, abi: safeAbi, functionName: 'VERSION' })
  const release = MULTI_SEND_CALL_ONLY[version as MultiSendVersion]
  if (!release) return null
  // The code must be the canonical one: the Safe DELEGATECALLs it, which hands it the treasury.
  const code = await client.getCode({ address: release.address })
  return code && keccak256(code) === release.codeHash ? release.address : null
}

/** The owners among `owners` who approved `hash` on chain (Safe's approveHash). */
export async function approvedOwners(
  client: PublicClient,
  safe: Address,
  hash: Hex,
  owners: readonly Address[],
): Promise<Address[]> {
  const approved = await Promise.all(
    owners.map((owner) =>
      client.readContract({
        address: safe,
        abi: safeAbi,
        functionName: 'approvedHashes',
        args: [owner, hash],
      }),
    ),
  )
  return owners.filter((_, index) => (approved[index] ?? 0n) !== 0n)
}

/** One execution of the Safe: the Safe transaction hash it ran, and the Ethereum transaction it ran in. */
export type SafeExecutionEvent = {
  safeTxHash: Hex
  success: boolean
  transactionHash: Hex
  blockNumber: bigint
}

/** The Safe's executions after block `after`, in order: the n-th used the nonce it had then plus n. */
export async function executionsAfter(
  client: PublicClient,
  safe: Address,
  after: bigint,
): Promise<SafeExecutionEvent[]> {
  const logs = await client.request({
    method: 'eth_getLogs',
    params: [
      {
        address: safe,
        fromBlock: `0x${(after + 1n).toString(16)}`,
        toBlock: 'latest',
        topics: [[EXECUTION_SUCCESS, EXECUTION_FAILURE]],
      },
    ],
  })
  return logs.map((log) => ({
    safeTxHash: (log.topics[1] ?? slice(log.data, 0, 32)) as Hex,
    success: log.topics[0] === EXECUTION_SUCCESS,
    transactionHash: log.transactionHash as Hex,
    blockNumber: BigInt(log.blockNumber as Hex),
  }))
}

// Revert reasons a batch of ERC-20 transfers and payments gives most often: Solidity's, and OpenZeppelin's
// ERC-20 errors.
const revertAbi = parseAbi([
  'error Error(string reason)',
  'error Panic(uint256 code)',
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
])

/** A revert's data in words: its reason, its named error with arguments, or its raw hex. */
function revertReason(data: Hex): string {
  if (data === '0x') return 'reverted without a reason'
  try {
    const decoded = decodeErrorResult({ abi: revertAbi, data })
    if (decoded.errorName === 'Error') return String(decoded.args[0])
    return `${decoded.errorName}(${decoded.args.map(String).join(', ')})`
  } catch {
    return `reverted with ${data}`
  }
}

export type SafeSimulation = { success: boolean; revert: string | null; gasUsed: bigint }

/** The Safe's simulation is unavailable: no SimulateTxAccessor, or the Safe lacks its fallback handler. */
export class SimulationUnavailableError extends Error {
  override name = 'SimulationUnavailableError'
}

/**
 * Runs `to`/`value`/`data`/`operation` as the Safe would, without signatures: an eth_call to the Safe of
 * CompatibilityFallbackHandler.simulate(SimulateTxAccessor, …), which runs it and reverts, so nothing
 * changes, not even the nonce.
 */
export async function simulateAsSafe(
  client: PublicClient,
  safe: Address,
  transaction: { to: Address; value: bigint; data: Hex; operation: number },
): Promise<SafeSimulation> {
  let accessor: Address | undefined
  for (const candidate of SIMULATE_TX_ACCESSORS) {
    const code = await client.getCode({ address: candidate })
    if (code && code !== '0x') {
      accessor = candidate
      break
    }
  }
  if (!accessor) throw new SimulationUnavailableError('No SimulateTxAccessor is deployed on this chain.')
  const payload = encodeFunctionData({
    abi: simulateTxAccessorAbi,
    functionName: 'simulate',
    args: [transaction.to, transaction.value, transaction.data, transaction.operation],
  })
  const { data } = await client.call({
    to: safe,
    data: encodeFunctionData({ abi: safeAbi, functionName: 'simulate', args: [accessor, payload] }),
  })
  if (!data || data === '0x')
    throw new SimulationUnavailableError("The Safe's fallback handler cannot simulate transactions.")
  const [response] = decodeAbiParameters([{ type: 'bytes' }], data)
  const [estimate, success, returnData] = decodeAbiParameters(
    [{ type: 'uint256' }, { type: 'bool' }, { type: 'bytes' }],
    response,
  )
  return { success, revert: success ? null : revertReason(returnData), gasUsed: estimate }
}
