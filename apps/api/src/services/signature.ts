import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  hashMessage,
  isAddressEqual,
  isErc6492Signature,
  type PublicClient,
  recoverMessageAddress,
  size,
} from 'viem'

/** The chain could not be asked; the caller answers 503 and keeps the nonce. */
export class ChainUnavailableError extends Error {
  override name = 'ChainUnavailableError'
}

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

/**
 * True when `signature` proves that `address` signed the personal message `message`.
 * ECDSA is checked locally first, so an externally owned account never waits on the chain; contract
 * accounts (ERC-1271, Safe's approved-hash form with an empty signature) and counterfactual ones
 * (ERC-6492) are asked on the chain. Throws ChainUnavailableError when the chain does not answer.
 */
export async function verifyPersonalSignature({
  address,
  message,
  signature,
  client,
}: {
  address: Address
  message: string
  signature: Hex
  client: PublicClient
}): Promise<boolean> {
  if (size(signature) === 65) {
    try {
      if (isAddressEqual(await recoverMessageAddress({ message, signature }), address)) return true
    } catch {
      // Not a valid ECDSA signature; a contract account may still accept it.
    }
  }

  if (isErc6492Signature(signature)) {
    try {
      return await client.verifyMessage({ address, message, signature })
    } catch (error) {
      if (contractSaidNo(error)) return false
      throw new ChainUnavailableError('The chain did not answer the ERC-6492 check.', { cause: error })
    }
  }

  let code: Hex | undefined
  try {
    code = await client.getCode({ address })
  } catch (error) {
    throw new ChainUnavailableError('The chain did not answer the contract-account check.', { cause: error })
  }
  if (!code || code === '0x') return false

  try {
    const result = await client.readContract({
      address,
      abi: erc1271Abi,
      functionName: 'isValidSignature',
      args: [hashMessage(message), signature],
    })
    return result.toLowerCase() === ERC1271_MAGIC_VALUE
  } catch (error) {
    if (contractSaidNo(error)) return false
    throw new ChainUnavailableError('The chain did not answer the ERC-1271 check.', { cause: error })
  }
}
