// Real Safe smart accounts on the development chain: the official Safe v1.5.0 contracts, byte for byte
// from `@safe-global/safe-smart-account`'s build artifacts, at their canonical addresses.
import { createRequire } from 'node:module'
import {
  type Address,
  concatHex,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  encodePacked,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  hashMessage,
  hashTypedData,
  http,
  keccak256,
  type LocalAccount,
  pad,
  parseAbi,
  parseEther,
  type SignableMessage,
  serializeErc6492Signature,
  zeroAddress,
} from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { ANVIL_MNEMONIC, anvilAccounts } from './accounts.ts'

/** The Safe release deployed here (pinned exactly in packages/devchain/package.json). */
export const SAFE_VERSION = '1.5.0'

/**
 * Safe's singleton factory (github.com/safe-global/safe-singleton-factory): the same runtime code as
 * Arachnid's deterministic-deployment proxy — calldata = 32-byte salt ++ init code, CREATE2, returns the
 * 20-byte address. Safe deploys every release through it with salt 0, so deploying the unmodified
 * artifacts through it gives the canonical addresses listed in safe-deployments.
 */
export const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'
const SINGLETON_FACTORY_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'
const ZERO_SALT: Hex = pad('0x', { size: 32 })

/** ERC-1271 `isValidSignature(bytes32,bytes)` magic value, the only flavour Safe v1.5.0's handler has. */
export const ERC1271_MAGIC_VALUE: Hex = '0x1626ba7e'

// Only the functions used here; safe.test.ts checks each selector against the artifacts' full ABIs.
export const safeAbi = parseAbi([
  'function setup(address[] owners, uint256 threshold, address to, bytes data, address fallbackHandler, address paymentToken, uint256 payment, address paymentReceiver)',
  'function execTransaction(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, bytes signatures) payable returns (bool success)',
  'function getTransactionHash(address to, uint256 value, bytes data, uint8 operation, uint256 safeTxGas, uint256 baseGas, uint256 gasPrice, address gasToken, address refundReceiver, uint256 nonce) view returns (bytes32)',
  'function nonce() view returns (uint256)',
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function domainSeparator() view returns (bytes32)',
  'function signedMessages(bytes32 messageHash) view returns (uint256)',
  'function VERSION() view returns (string)',
  'event ExecutionSuccess(bytes32 indexed txHash, uint256 payment)',
  'event ExecutionFailure(bytes32 indexed txHash, uint256 payment)',
])
export const safeProxyFactoryAbi = parseAbi([
  'function createProxyWithNonce(address singleton, bytes initializer, uint256 saltNonce) returns (address proxy)',
  'function proxyCreationCode() pure returns (bytes)',
])
/** Reached through the Safe's fallback: call these on the Safe's address, not the handler's. */
export const compatibilityFallbackHandlerAbi = parseAbi([
  'function isValidSignature(bytes32 dataHash, bytes signature) view returns (bytes4)',
  'function getMessageHashForSafe(address safe, bytes message) view returns (bytes32)',
])
export const signMessageLibAbi = parseAbi(['function signMessage(bytes data)'])

type Artifact = { contractName: string; bytecode: Hex; deployedBytecode: Hex }

const artifactPaths = {
  singleton: 'Safe.sol/Safe.json',
  factory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  fallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  signMessageLib: 'libraries/SignMessageLib.sol/SignMessageLib.json',
  proxy: 'proxies/SafeProxy.sol/SafeProxy.json',
} as const
type ArtifactName = keyof typeof artifactPaths

const require = createRequire(import.meta.url)

/** A build artifact (bytecode, ABI) of the pinned `@safe-global/safe-smart-account`. */
export function safeArtifact(name: ArtifactName): Artifact & { abi: unknown[] } {
  return require(`@safe-global/safe-smart-account/build/artifacts/contracts/${artifactPaths[name]}`)
}

function create2Address(bytecode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: SAFE_SINGLETON_FACTORY, salt: ZERO_SALT, bytecode })
}

export type SafeContracts = {
  singleton: Address
  factory: Address
  fallbackHandler: Address
  signMessageLib: Address
}

/** Where the Safe contracts land (computed from the artifacts; equal to Safe's canonical v1.5.0 addresses). */
export function safeContractAddresses(): SafeContracts {
  return {
    singleton: create2Address(safeArtifact('singleton').bytecode),
    factory: create2Address(safeArtifact('factory').bytecode),
    fallbackHandler: create2Address(safeArtifact('fallbackHandler').bytecode),
    signMessageLib: create2Address(safeArtifact('signMessageLib').bytecode),
  }
}

export type DemoSafe = { address: Address; owners: Address[]; threshold: number }

export type SafeDeployment = SafeContracts & {
  chainId: number
  /** 1-of-1, owned by anvil account 1 (Ada). */
  oneOfOne: DemoSafe
  /** 2-of-3, owned by anvil accounts 1, 2, 3 (Ada, Ben, Cleo). */
  twoOfThree: DemoSafe
}

/** The demo Safes: owners (anvil account indexes), threshold, and the fixed `createProxyWithNonce` salt nonce. */
export const demoSafes = {
  oneOfOne: { owners: [1], threshold: 1, saltNonce: 1n },
  twoOfThree: { owners: [1, 2, 3], threshold: 2, saltNonce: 2n },
} as const satisfies Record<string, { owners: readonly number[]; threshold: number; saltNonce: bigint }>

type ChainTarget = { rpcUrl: string; chainId: number }

function clients({ rpcUrl, chainId }: ChainTarget) {
  const chain = defineChain({
    id: chainId,
    name: 'Guildhall devchain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const options = { chain, transport: http(rpcUrl), pollingInterval: 50 }
  return {
    publicClient: createPublicClient(options),
    walletClient: createWalletClient(options),
    testClient: createTestClient({ ...options, mode: 'anvil' }),
  }
}
type Clients = ReturnType<typeof clients>

let relayerAccount: LocalAccount | undefined
/**
 * Sends every Safe transaction (deployments, proxy creation, execTransaction). It is account 10 of the
 * anvil mnemonic — outside the 10 funded accounts, funded here with anvil_setBalance — so that nonces of
 * accounts 0–9 never change: the demo token's address depends on account 0's nonce. Who sends does not
 * matter to Safe: CREATE2 addresses and owner signatures do not involve the sender.
 */
export function safeRelayer(): LocalAccount {
  relayerAccount ??= mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 10 })
  return relayerAccount
}

async function fundRelayer({ publicClient, testClient }: Clients) {
  const relayer = safeRelayer().address
  if ((await publicClient.getBalance({ address: relayer })) < parseEther('10')) {
    await testClient.setBalance({ address: relayer, value: parseEther('1000') })
  }
}

async function successfulReceipt({ publicClient }: Clients, hash: Hash, what: string) {
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
  if (receipt.status !== 'success') throw new Error(`${what}: transaction ${hash} reverted`)
  return receipt
}

function anvilAddress(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
}

/** `setup(...)` calldata for a Safe with these owners and threshold and the CompatibilityFallbackHandler. */
export function safeInitializer({
  owners,
  threshold,
  fallbackHandler,
}: {
  owners: readonly Address[]
  threshold: number
  fallbackHandler: Address
}): Hex {
  return encodeFunctionData({
    abi: safeAbi,
    functionName: 'setup',
    args: [owners, BigInt(threshold), zeroAddress, '0x', fallbackHandler, zeroAddress, 0n, zeroAddress],
  })
}

/** The address `SafeProxyFactory.createProxyWithNonce(singleton, initializer, saltNonce)` deploys to. */
export function predictSafeAddress({
  factory,
  singleton,
  initializer,
  saltNonce,
}: {
  factory: Address
  singleton: Address
  initializer: Hex
  saltNonce: bigint
}): Address {
  // SafeProxyFactory: salt = keccak256(keccak256(initializer) ++ saltNonce),
  // init code = SafeProxy creation code ++ uint256(singleton).
  const salt = keccak256(encodePacked(['bytes32', 'uint256'], [keccak256(initializer), saltNonce]))
  const bytecode = concatHex([safeArtifact('proxy').bytecode, pad(singleton, { size: 32 })])
  return getContractAddress({ opcode: 'CREATE2', from: factory, salt, bytecode })
}

/**
 * Deploys Safe v1.5.0 (singleton, SafeProxyFactory, CompatibilityFallbackHandler, SignMessageLib) at the
 * canonical addresses, then a 1-of-1 Safe (Ada) and a 2-of-3 Safe (Ada, Ben, Cleo). Deterministic: the
 * same addresses on every chain. Anything already deployed is left alone, so calling it twice is harmless.
 * Sends from `safeRelayer()` only; accounts 0–9 keep their nonces.
 */
export async function deploySafes({ rpcUrl, chainId }: ChainTarget): Promise<SafeDeployment> {
  const c = clients({ rpcUrl, chainId })
  const actual = await c.publicClient.getChainId()
  if (actual !== chainId) throw new Error(`${rpcUrl} is chain ${actual}, expected ${chainId}`)
  const relayer = safeRelayer()
  await fundRelayer(c)

  const factoryCode = await c.publicClient.getCode({ address: SAFE_SINGLETON_FACTORY })
  if (!factoryCode || factoryCode === '0x') {
    // Installed like Multicall3: no transaction, and nothing else on the chain changes.
    await c.testClient.setCode({ address: SAFE_SINGLETON_FACTORY, bytecode: SINGLETON_FACTORY_RUNTIME })
  }

  const contracts = safeContractAddresses()
  const names = ['singleton', 'factory', 'fallbackHandler', 'signMessageLib'] as const
  const deployments: { name: (typeof names)[number]; hash: Hash }[] = []
  for (const name of names) {
    const code = await c.publicClient.getCode({ address: contracts[name] })
    if (code && code !== '0x') continue
    const hash = await c.walletClient.sendTransaction({
      account: relayer,
      to: SAFE_SINGLETON_FACTORY,
      data: concatHex([ZERO_SALT, safeArtifact(name).bytecode]),
    })
    deployments.push({ name, hash })
  }
  for (const { name, hash } of deployments) await successfulReceipt(c, hash, `deploying Safe ${name}`)
  for (const name of names) {
    const code = await c.publicClient.getCode({ address: contracts[name] })
    if (code !== safeArtifact(name).deployedBytecode) {
      throw new Error(`Safe ${name} at ${contracts[name]} does not have the v${SAFE_VERSION} code`)
    }
  }

  const safes = {} as Record<keyof typeof demoSafes, DemoSafe>
  const creations: Hash[] = []
  for (const key of Object.keys(demoSafes) as (keyof typeof demoSafes)[]) {
    const spec = demoSafes[key]
    const owners = spec.owners.map(anvilAddress)
    const initializer = safeInitializer({
      owners,
      threshold: spec.threshold,
      fallbackHandler: contracts.fallbackHandler,
    })
    const address = predictSafeAddress({
      factory: contracts.factory,
      singleton: contracts.singleton,
      initializer,
      saltNonce: spec.saltNonce,
    })
    safes[key] = { address, owners, threshold: spec.threshold }
    const code = await c.publicClient.getCode({ address })
    if (code && code !== '0x') continue
    creations.push(
      await c.walletClient.writeContract({
        account: relayer,
        address: contracts.factory,
        abi: safeProxyFactoryAbi,
        functionName: 'createProxyWithNonce',
        args: [contracts.singleton, initializer, spec.saltNonce],
      }),
    )
  }
  for (const hash of creations) await successfulReceipt(c, hash, 'creating a demo Safe')
  for (const safe of Object.values(safes)) {
    const code = await c.publicClient.getCode({ address: safe.address })
    if (!code || code === '0x') throw new Error(`no Safe was created at ${safe.address}`)
  }

  return { chainId, ...contracts, oneOfOne: safes.oneOfOne, twoOfThree: safes.twoOfThree }
}

/** An owner: a viem local account, or the address of one of the 10 anvil accounts. */
export type SafeOwnerSigner = LocalAccount | Address

function toLocalAccount(owner: SafeOwnerSigner): LocalAccount {
  if (typeof owner !== 'string') return owner
  const found = anvilAccounts.find((a) => a.address.toLowerCase() === owner.toLowerCase())
  if (!found) throw new Error(`${owner} is not an anvil account; pass a local account to sign with it`)
  return privateKeyToAccount(found.privateKey)
}

/** Owners' 65-byte ECDSA signatures of `hash`, concatenated in ascending owner-address order (Safe requires it). */
async function ownerSignatures(owners: readonly SafeOwnerSigner[], hash: Hash): Promise<Hex> {
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
