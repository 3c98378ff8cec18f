// Every way a Safe signs here: its owners' ERC-1271 signature, an undeployed Safe's ERC-6492 signature, and a
// hash approved on chain (SignMessageLib).
import {
  type Address,
  concatHex,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  hashMessage,
  hashTypedData,
  type LocalAccount,
  type SignableMessage,
  serializeErc6492Signature,
  zeroAddress,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { anvilAccounts } from '../accounts.ts'
import {
  predictSafeAddress,
  safeAbi,
  safeContractAddresses,
  safeInitializer,
  safeProxyFactoryAbi,
  signMessageLibAbi,
} from './contracts.ts'
import { type ChainTarget, clients, fundRelayer, safeRelayer, successfulReceipt } from './relayer.ts'

/** An owner: a viem local account, or the address of one of the 10 anvil accounts. */
export type SafeOwnerSigner = LocalAccount | Address

function toLocalAccount(owner: SafeOwnerSigner): LocalAccount {
  if (typeof owner !== 'string') return owner
  const found = anvilAccounts.find((a) => a.address.toLowerCase() === owner.toLowerCase())
  if (!found) throw new Error(`${owner} is not an anvil account; pass a local account to sign with it`)
  return privateKeyToAccount(found.privateKey)
}

/** Owners' 65-byte ECDSA signatures of `hash`, concatenated in ascending owner-address order (Safe requires it). */
export async function ownerSignatures(owners: readonly SafeOwnerSigner[], hash: Hash): Promise<Hex> {
  const accounts = owners.map(toLocalAccount)
  accounts.sort((a, b) => {
    const x = BigInt(a.address)
    const y = BigInt(b.address)
    return x < y ? -1 : x > y ? 1 : 0
  })
  const signatures: Hex[] = []
  for (const account of accounts) {
    if (!account.sign) throw new Error(`account ${account.address} cannot sign a raw hash`)
    // Plain ECDSA over the hash, v = 27/28: Safe's "signature type" for v > 30 would mean eth_sign.
    signatures.push(await account.sign({ hash }))
  }
  return concatHex(signatures)
}

/**
 * The hash Safe owners sign for an ERC-1271 check of `hash`: EIP-712 over the Safe's domain
 * { chainId, verifyingContract: safe } of `SafeMessage(bytes message)` with message = the 32 bytes of
 * `hash` — what CompatibilityFallbackHandler.isValidSignature computes (`abi.encode(_dataHash)`).
 */
export function safeMessageHash({
  safe,
  chainId,
  hash,
}: {
  safe: Address
  chainId: number
  hash: Hash
}): Hash {
  return hashTypedData({
    domain: { chainId, verifyingContract: safe },
    types: { SafeMessage: [{ name: 'message', type: 'bytes' }] },
    primaryType: 'SafeMessage',
    message: { message: hash },
  })
}

/**
 * The Safe's ERC-1271 signature of `hash` (e.g. an EIP-712 digest): owners' signatures of
 * `safeMessageHash`, sorted by owner address. Valid for `isValidSignature(hash, signature)` once at least
 * `threshold` owners signed.
 */
export async function signHashAsSafe({
  safe,
  chainId,
  owners,
  hash,
}: {
  safe: Address
  chainId: number
  owners: readonly SafeOwnerSigner[]
  hash: Hash
}): Promise<Hex> {
  return ownerSignatures(owners, safeMessageHash({ safe, chainId, hash }))
}

/** The Safe's ERC-1271 signature of an EIP-191 personal message (what viem's `verifyMessage` checks). */
export async function signMessageAsSafe({
  safe,
  chainId,
  owners,
  message,
}: {
  safe: Address
  chainId: number
  owners: readonly SafeOwnerSigner[]
  message: SignableMessage
}): Promise<Hex> {
  return signHashAsSafe({ safe, chainId, owners, hash: hashMessage(message) })
}

/**
 * A counterfactual Safe: not deployed, yet able to sign. Returns its predicted address and an ERC-6492
 * signature of `message`: the owners' ERC-1271 signature wrapped with the factory call that would deploy it,
 * so a verifier can simulate the deployment (viem's `verifyMessage` does) without anything being sent.
 */
export async function signMessageAsUndeployedSafe({
  owners,
  threshold,
  saltNonce,
  chainId,
  signers,
  message,
}: {
  owners: readonly Address[]
  threshold: number
  saltNonce: bigint
  chainId: number
  /** The owners who sign (at least `threshold` of them for a valid signature). */
  signers: readonly SafeOwnerSigner[]
  message: SignableMessage
}): Promise<{ address: Address; signature: Hex }> {
  const contracts = safeContractAddresses()
  const initializer = safeInitializer({ owners, threshold, fallbackHandler: contracts.fallbackHandler })
  const address = predictSafeAddress({ ...contracts, initializer, saltNonce })
  const ownersSignature = await signMessageAsSafe({ safe: address, chainId, owners: signers, message })
  const deployCall = encodeFunctionData({
    abi: safeProxyFactoryAbi,
    functionName: 'createProxyWithNonce',
    args: [contracts.singleton, initializer, saltNonce],
  })
  return {
    address,
    signature: serializeErc6492Signature({
      address: contracts.factory,
      data: deployCall,
      signature: ownersSignature,
    }),
  }
}

export type ApprovedHash = {
  /** The hash now valid for `isValidSignature(hash, '0x')`. */
  hash: Hash
  /** What the Safe stored in `signedMessages`. */
  safeMessageHash: Hash
  /** The `execTransaction` transaction. */
  transactionHash: Hash
}

/**
 * Safe's "on-chain signed message": a Safe transaction DELEGATECALLs SignMessageLib.signMessage(hash),
 * which sets `signedMessages[safeMessageHash] = 1`; afterwards the CompatibilityFallbackHandler accepts
 * `isValidSignature(hash, '0x')` (empty signature). `owners` must reach the Safe's threshold; the
 * transaction is relayed by `safeRelayer()`. Pass `message` (EIP-191, hashed with hashMessage) or `hash`.
 */
export async function approveHashOnChain(
  params: ChainTarget & { safe: Address; owners: readonly SafeOwnerSigner[] } & (
      | { message: SignableMessage; hash?: never }
      | { hash: Hash; message?: never }
    ),
): Promise<ApprovedHash> {
  const { safe, owners, chainId } = params
  const hash = params.hash ?? hashMessage(params.message as SignableMessage)
  const c = clients(params)
  await fundRelayer(c)
  const { signMessageLib } = safeContractAddresses()

  const to = signMessageLib
  const data = encodeFunctionData({ abi: signMessageLibAbi, functionName: 'signMessage', args: [hash] })
  const operation = 1 // DELEGATECALL: SignMessageLib writes to the Safe's own storage
  const nonce = await c.publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
  const safeTxHash = await c.publicClient.readContract({
    address: safe,
    abi: safeAbi,
    functionName: 'getTransactionHash',
    args: [to, 0n, data, operation, 0n, 0n, 0n, zeroAddress, zeroAddress, nonce],
  })
  const signatures = await ownerSignatures(owners, safeTxHash)
  const transactionHash = await c.walletClient.writeContract({
    account: safeRelayer(),
    address: safe,
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [to, 0n, data, operation, 0n, 0n, 0n, zeroAddress, zeroAddress, signatures],
  })
  await successfulReceipt(c, transactionHash, 'approving a hash on the Safe')

  const stored = safeMessageHash({ safe, chainId, hash })
  const marked = await c.publicClient.readContract({
    address: safe,
    abi: safeAbi,
    functionName: 'signedMessages',
    args: [stored],
  })
  if (marked === 0n) throw new Error(`Safe ${getAddress(safe)} did not record the signed message`)
  return { hash, safeMessageHash: stored, transactionHash }
}
