// What an execution of the Safe did, read from the transaction that carried it (fetched once per execution)
// or, on an L2 Safe, from its SafeMultiSigTransaction log: the Safe transaction's fields, checked against the
// hash the Safe emitted, and its calls decoded (a MultiSend batch, ERC-20 transfer and approve, calls to the
// Safe itself as settings). Native coin a call sends is a move the Safe's events never show on an L1 Safe.
import {
  decodeMultiSend,
  erc20ActionAbi,
  type MultiSendCall,
  OPERATION_DELEGATE_CALL,
  type SafeTransaction,
  safeSettingsAbi,
  safeTransactionHashes,
} from '@guildhall/core'
import {
  type Address,
  decodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from 'viem'

const execTransactionAbi = parseAbi([
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
])
/** A Safe transaction's fields, as execTransaction takes them (the nonce is the Safe's at execution). */
export type SafeTxFields = {
  to: Address
  value: bigint
  data: Hex
  operation: number
  safeTxGas: bigint
  baseGas: bigint
  gasPrice: bigint
  gasToken: Address
  refundReceiver: Address
}

/** The Safe transaction hash of `fields` at `nonce`, as the Safe computed it. */
function safeTxHash(chainId: number, safe: Address, fields: SafeTxFields, nonce: number): Hash {
  const transaction = {
    ...fields,
    operation: fields.operation as SafeTransaction['operation'],
    nonce: BigInt(nonce),
  }
  return safeTransactionHashes({ chainId, safe, transaction }).safeTxHash
}

/** Native coin the Safe sent in an execution: a call's value, or the gas refund it paid. */
type NativeMove = { to: Address; amount: bigint; detail: string }

export type DecodedExecution = {
  /** The execution in words: its calls, or why they cannot be shown. */
  detail: string
  /** Native coin sent (successful executions only: a failed one moved nothing but its refund). */
  moves: NativeMove[]
}

/** One call the Safe made, in words, with the native coin it sent. */
function describeCall(
  safe: Address,
  call: { operation: number; to: Address; value: bigint; data: Hex },
): { text: string; move: NativeMove | null } {
  const to = getAddress(call.to)
  const move = call.value > 0n ? { to, amount: call.value, detail: `Sent in a call to ${to}` } : null
  if (call.operation !== 0) return { text: `DELEGATECALL ${to} (its effects are not shown)`, move: null }
  if (to === safe) {
    try {
      const { functionName, args } = decodeFunctionData({ abi: safeSettingsAbi, data: call.data })
      return { text: `Settings: ${functionName}(${args.map(String).join(', ')})`, move }
    } catch {
      return { text: `Call to the Safe itself (${call.data.slice(0, 10)})`, move }
    }
  }
  if (call.data !== '0x') {
    try {
      const { functionName, args } = decodeFunctionData({ abi: erc20ActionAbi, data: call.data })
      return { text: `${functionName} ${args.map(String).join(' ')} on ${to}`, move }
    } catch {
      return {
        text: `Call ${to} (${call.data.slice(0, 10)})${call.value > 0n ? ` with ${call.value}` : ''}`,
        move,
      }
    }
  }
  return { text: `${call.value} native to ${to}`, move }
}

/** A MultiSend batch's calls; null when the DELEGATECALL is not one (its effects are then not shown). */
function batchCalls(data: Hex): MultiSendCall[] | null {
  try {
    return decodeMultiSend(data)
  } catch {
    return null
  }
}

/** What the Safe transaction `fields` did, when it executed (`success`) or not. */
export function decodeSafeTx(
  safe: Address,
  fields: SafeTxFields,
  { success, payment, origin }: { success: boolean; payment: bigint; origin: Address },
): DecodedExecution {
  const calls = fields.operation === OPERATION_DELEGATE_CALL ? batchCalls(fields.data) : null
  const described = (calls ?? [fields]).map((call) => describeCall(safe, call))
  const moves = success ? described.flatMap(({ move }) => (move ? [move] : [])) : []
  // The refund Safe pays the executor in the native coin (gasToken 0): to refundReceiver, else tx.origin.
  if (payment > 0n && fields.gasToken === zeroAddress) {
    const to = fields.refundReceiver === zeroAddress ? origin : fields.refundReceiver
    moves.push({ to, amount: payment, detail: `Gas refund to ${to}` })
  }
  const texts = described.map(({ text }) => text)
  return {
    detail: calls ? `Batch of ${texts.length}: ${texts.join('; ')}` : (texts[0] ?? ''),
    moves,
  }
}

/**
 * The fields of the execution with hash `hash` at `nonce`: from the L2 Safe's SafeMultiSigTransaction log
 * when there is one, else from the transaction's input when it was sent to the Safe itself; null when
 * neither gives a Safe transaction with that hash (sent through another contract, a relayer, a module).
 */
export async function executionFields(
  client: PublicClient,
  {
    chainId,
    safe,
    transactionHash,
    hash,
    nonce,
    l2Fields,
  }: {
    chainId: number
    safe: Address
    transactionHash: Hash
    hash: Hash
    nonce: number
    l2Fields: SafeTxFields | null
  },
): Promise<{ fields: SafeTxFields; origin: Address } | null> {
  const transaction = await client.getTransaction({ hash: transactionHash })
  const origin = getAddress(transaction.from)
  if (l2Fields && safeTxHash(chainId, safe, l2Fields, nonce) === hash) return { fields: l2Fields, origin }
  if (!transaction.to || getAddress(transaction.to) !== safe) return null
  try {
    const { args } = decodeFunctionData({ abi: execTransactionAbi, data: transaction.input })
    const [to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver] = args
    const fields = { to, value, data, operation, safeTxGas, baseGas, gasPrice, gasToken, refundReceiver }
    return safeTxHash(chainId, safe, fields, nonce) === hash ? { fields, origin } : null
  } catch {
    return null
  }
}
