import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  encodeDeployData,
  erc6492SignatureValidatorAbi,
  erc6492SignatureValidatorByteCode,
  type Hex,
  HttpRequestError,
  hashMessage,
  hexToBool,
  isAddressEqual,
  isErc6492Signature,
  type PublicClient,
  type ReadContractParameters,
  recoverAddress,
  size,
  TimeoutError,
} from 'viem'

/** The chain could not be asked; the caller answers 503 and keeps the nonce. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError'
}

/**
 * Gas an on-chain signature check may burn: a smart account's deployment (ERC-6492) plus its
 * isValidSignature, passkey verification included, fits with room to spare. Without it the node runs the
 * call up to its own cap (the block gas limit, tens of millions), which anyone can make it burn with a
 * factory or wallet that loops.
 */
export const SIGNATURE_CHECK_GAS = 2_000_000n
/** How long a signature check may wait on the chain in all, retries of the transport included. */
const SIGNATURE_CHECK_TIMEOUT_MS = 5_000

const ERC1271_MAGIC_VALUE = '0x1626ba7e'
const erc1271Abi = [
  {
    type: 'function',
    name: 'isValidSignature',
    stateMutability: 'view',
    inputs: [
      { name: 'hash', type: 'bytes32' },
      { name: 'signature', type: 'bytes' },
    ],
    outputs: [{ name: '', type: 'bytes4' }],
  },
] as const

/** A contract that reverted or answered garbage said "no"; anything else means we could not ask. */
function contractSaidNo(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(
      error.walk(
        (e) =>
          e instanceof ContractFunctionRevertedError ||
          (e as { name?: string }).name === 'AbiDecodingZeroDataError',
      ),
    )
  )
}

/** The request never got an answer (connection refused, HTTP error, timeout), as opposed to a revert. */
function couldNotAsk(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    Boolean(error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError))
  )
}

/**
 * The address whose key made the ECDSA signature `signature` of `hash`, or null when it is not a valid
 * ECDSA signature. Anything it throws is the recoverer's own failure and reaches the caller.
 */
export type RecoverSigner = (hash: Hex, signature: Hex) => Promise<Address | null>

/** Recovery on the calling thread (viem's recoverAddress); the API moves it onto worker threads (ADR 063). */
export const recoverSigner: RecoverSigner = (hash, signature) =>
  recoverAddress({ hash, signature }).catch(() => null)

/** True when `signature` proves that `address` signed the personal message `message` (EIP-191). */
export function verifyPersonalSignature({
  message,
  ...rest
}: {
  address: Address
  message: string
  signature: Hex
  client: PublicClient
  recover?: RecoverSigner
}): Promise<boolean> {
  return verifyHashSignature({ ...rest, hash: hashMessage(message) })
}

/**
 * True when `signature` proves that `address` signed the digest `hash` (a personal message's or an EIP-712
 * message's). ECDSA is checked locally first, so an externally owned account never waits on the chain;
 * contract accounts (ERC-1271, Safe's approved-hash form with an empty signature) and counterfactual ones
 * (ERC-6492) are asked on the chain. Throws ChainUnavailableError when the chain does not answer.
 */
export async function verifyHashSignature({
  address,
  hash,
  signature,
  client,
  timeoutMs = SIGNATURE_CHECK_TIMEOUT_MS,
  recover = recoverSigner,
}: {
  address: Address
  hash: Hex
  signature: Hex
  client: PublicClient
  /** The longest wait on the chain (SIGNATURE_CHECK_TIMEOUT_MS); then ChainUnavailableError. */
  timeoutMs?: number
  /** Where ECDSA recovery runs (recoverSigner: on this thread); its errors are thrown as they are. */
  recover?: RecoverSigner
}): Promise<boolean> {
  // Not a valid ECDSA signature (null): a contract account may still accept it.
  if (size(signature) === 65) {
    const signer = await recover(hash, signature)
    if (signer && isAddressEqual(signer, address)) return true
  }
  return withDeadline(timeoutMs, () => verifyOnChain({ address, hash, signature, client }))
}

/** `run`'s answer, or ChainUnavailableError once `ms` have passed (the request itself is left to finish). */
async function withDeadline<T>(ms: number, run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new ChainUnavailableError(`The chain did not answer the signature check within ${ms} ms.`)),
      ms,
    )
  })
  try {
    return await Promise.race([run(), deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** The contract-account checks: ERC-6492 for undeployed accounts, else ERC-1271 if the address has code. */
async function verifyOnChain({
  address,
  hash,
  signature,
  client,
}: {
  address: Address
  hash: Hex
  signature: Hex
  client: PublicClient
}): Promise<boolean> {
  if (isErc6492Signature(signature)) {
    // viem's verifyMessage reads a chain that cannot be reached as "invalid"; we need to tell them apart, so
    // the same deployless validator call is made here and its failure classified.
    try {
      const { data } = await client.call({
        data: encodeDeployData({
          abi: erc6492SignatureValidatorAbi,
          args: [address, hash, signature],
          bytecode: erc6492SignatureValidatorByteCode,
        }),
        gas: SIGNATURE_CHECK_GAS,
      })
      return hexToBool(data ?? '0x0')
    } catch (error) {
      if (couldNotAsk(error))
        throw new ChainUnavailableError('The chain did not answer the ERC-6492 check.', { cause: error })
      return false
    }
  }

  // readContract hands its remaining parameters to eth_call, `gas` included, though its type leaves it out.
  const readWithGasCap = client.readContract as (
    parameters: ReadContractParameters<typeof erc1271Abi, 'isValidSignature'> & { gas: bigint },
  ) => Promise<Hex>
  let code: Hex | undefined
  try {
    code = await client.getCode({ address })
  } catch (error) {
    throw new ChainUnavailableError('The chain did not answer the contract-account check.', { cause: error })
  }
  if (!code || code === '0x') return false

  try {
    const result = await readWithGasCap({
      address,
      abi: erc1271Abi,
      functionName: 'isValidSignature',
      args: [hash, signature],
      gas: SIGNATURE_CHECK_GAS,
    })
    return result.toLowerCase() === ERC1271_MAGIC_VALUE
  } catch (error) {
    if (contractSaidNo(error)) return false
    throw new ChainUnavailableError('The chain did not answer the ERC-1271 check.', { cause: error })
  }
}
