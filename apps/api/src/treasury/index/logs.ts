// What the treasury index reads of a block range: every log of the Safe (one eth_getLogs on its address) and
// the followed tokens' Transfer logs with the Safe as sender or receiver (two more), decoded. The Safe's
// events are decoded in either layout: v1.3.0 indexes neither ExecutionSuccess's hash nor the owner,
// module, guard and handler events; v1.4.1 and v1.5.0 do.
import {
  type AbiEvent,
  type Address,
  decodeEventLog,
  getAddress,
  type Hash,
  type Hex,
  hexToBigInt,
  hexToNumber,
  numberToHex,
  type PublicClient,
  padHex,
  parseAbi,
  type RpcLog,
  toEventSelector,
} from 'viem'

const LAYOUTS = [
  // v1.4.1 and v1.5.0
  parseAbi([
    'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
    'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
    'event AddedOwner(address indexed owner)',
    'event RemovedOwner(address indexed owner)',
    'event EnabledModule(address indexed module)',
    'event DisabledModule(address indexed module)',
    'event ChangedGuard(address indexed guard)',
    'event ChangedFallbackHandler(address indexed handler)',
    'event ChangedModuleGuard(address indexed moduleGuard)',
  ]),
  // v1.3.0
  parseAbi([
    'event ExecutionSuccess(bytes32 txHash, uint256 payment)',
    'event ExecutionFailure(bytes32 txHash, uint256 payment)',
    'event AddedOwner(address owner)',
    'event RemovedOwner(address owner)',
    'event EnabledModule(address module)',
    'event DisabledModule(address module)',
    'event ChangedGuard(address guard)',
    'event ChangedFallbackHandler(address handler)',
  ]),
  // The same in every release
  parseAbi([
    'event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler)',
    'event SafeReceived(address indexed sender, uint256 value)',
    'event ChangedThreshold(uint256 threshold)',
    'event ExecutionFromModuleSuccess(address indexed module)',
    'event ExecutionFromModuleFailure(address indexed module)',
    'event ApproveHash(bytes32 indexed approvedHash, address indexed owner)',
    'event SignMsg(bytes32 indexed msgHash)',
    'event SafeMultiSigTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures, bytes additionalInfo)',
    'event SafeModuleTransaction(address module, address to, uint256 value, bytes data, uint8 operation)',
  ]),
] as const

/** Each Safe event by its topic0 and number of topics (the layouts differ only in what they index). */
const SAFE_EVENTS = new Map<string, AbiEvent>()
for (const layout of LAYOUTS)
  for (const event of layout as readonly AbiEvent[]) {
    const topics = 1 + event.inputs.filter((input) => input.indexed).length
    SAFE_EVENTS.set(`${toEventSelector(event)}:${topics}`, event)
  }

const TRANSFER = toEventSelector('Transfer(address,address,uint256)')

type LogBase = {
  blockNumber: number
  blockHash: Hash
  /** The block's time (unix seconds), when the node sends it with the log. */
  blockTimestamp: number | null
  logIndex: number
  transactionHash: Hash
  removed: boolean
}

export type SafeLog = LogBase & { source: 'safe'; eventName: string; args: Record<string, unknown> }
type TransferLog = LogBase & {
  source: 'transfer'
  token: Address
  from: Address
  to: Address
  value: bigint
}
export type TreasuryLog = SafeLog | TransferLog

function base(log: RpcLog): LogBase {
  return {
    blockNumber: hexToNumber(log.blockNumber as Hex),
    blockHash: log.blockHash as Hash,
    blockTimestamp: log.blockTimestamp ? hexToNumber(log.blockTimestamp as Hex) : null,
    logIndex: hexToNumber(log.logIndex as Hex),
    transactionHash: log.transactionHash as Hash,
    removed: log.removed,
  }
}

/** A Safe log decoded by its layout; null for an event no Safe release here emits (left out of the history). */
function decodeSafeLog(log: RpcLog): SafeLog | null {
  const event = SAFE_EVENTS.get(`${log.topics[0]?.toLowerCase()}:${log.topics.length}`)
  if (!event) return null
  const decoded = decodeEventLog({ abi: [event], data: log.data, topics: log.topics as [Hex, ...Hex[]] })
  return {
    ...base(log),
    source: 'safe',
    eventName: decoded.eventName,
    args: decoded.args as Record<string, unknown>,
  }
}

/** A Transfer log, by hand (ERC-20: from and to indexed, the amount in the data); null for another layout (ERC-721). */
function decodeTransfer(log: RpcLog): TransferLog | null {
  const [, from, to] = log.topics
  if (log.topics.length !== 3 || log.data.length !== 2 + 64 || !from || !to) return null
  return {
    ...base(log),
    source: 'transfer',
    token: getAddress(log.address),
    from: getAddress(`0x${from.slice(26)}`),
    to: getAddress(`0x${to.slice(26)}`),
    value: hexToBigInt(log.data),
  }
}

/**
 * The Safe's logs and the tokens' Transfers to and from it in blocks from…to, in log order, each once (a
 * transfer from the Safe to itself matches both requests). Sent without the transport's retries, like the
 * token index's: a refused range is halved at once.
 */
export async function fetchTreasuryLogs(
  client: PublicClient,
  { safe, tokens }: { safe: Address; tokens: readonly Address[] },
  from: number,
  to: number,
): Promise<TreasuryLog[]> {
  const range = { fromBlock: numberToHex(from), toBlock: numberToHex(to) }
  const getLogs = (filter: { address: Address | Address[]; topics?: (Hex | null)[] }) =>
    client.request({ method: 'eth_getLogs', params: [{ ...filter, ...range }] }, { retryCount: 0 })
  const safeTopic = padHex(safe.toLowerCase() as Hex, { size: 32 })
  const [own, sent, received] = await Promise.all([
    getLogs({ address: safe }),
    tokens.length > 0 ? getLogs({ address: [...tokens], topics: [TRANSFER, safeTopic] }) : [],
    tokens.length > 0 ? getLogs({ address: [...tokens], topics: [TRANSFER, null, safeTopic] }) : [],
  ])
  const logs = new Map<string, TreasuryLog>()
  for (const log of own) {
    const decoded = decodeSafeLog(log)
    if (decoded) logs.set(`${decoded.blockNumber}:${decoded.logIndex}`, decoded)
  }
  for (const log of [...sent, ...received]) {
    const decoded = decodeTransfer(log)
    if (decoded) logs.set(`${decoded.blockNumber}:${decoded.logIndex}`, decoded)
  }
  return [...logs.values()].sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex)
}
