// The official Safe v1.5.0 contracts, byte for byte from `@safe-global/safe-smart-account`'s build artifacts:
// their ABIs, their canonical addresses, and where a Safe with given owners lands.
import { createRequire } from 'node:module'
import {
  type Address,
  concatHex,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
  parseAbi,
  zeroAddress,
} from 'viem'

/** The Safe release deployed here (pinned exactly in packages/devchain/package.json). */
export const SAFE_VERSION = '1.5.0'

/**
 * Safe's singleton factory (github.com/safe-global/safe-singleton-factory): the same runtime code as
 * Arachnid's deterministic-deployment proxy — calldata = 32-byte salt ++ init code, CREATE2, returns the
 * 20-byte address. Safe deploys every release through it with salt 0, so deploying the unmodified
 * artifacts through it gives the canonical addresses listed in safe-deployments.
 */
export const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'
export const SINGLETON_FACTORY_RUNTIME: Hex =
  '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3'
export const ZERO_SALT: Hex = pad('0x', { size: 32 })

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
  'event SafeSetup(address indexed initiator, address[] owners, uint256 threshold, address initializer, address fallbackHandler)',
  'event SafeReceived(address indexed sender, uint256 value)',
  'event AddedOwner(address indexed owner)',
  'event RemovedOwner(address indexed owner)',
  'event ChangedThreshold(uint256 threshold)',
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
  singletonL2: 'SafeL2.sol/SafeL2.json',
  factory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
  fallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
  signMessageLib: 'libraries/SignMessageLib.sol/SignMessageLib.json',
  multiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
  simulateTxAccessor: 'accessors/SimulateTxAccessor.sol/SimulateTxAccessor.json',
  proxy: 'proxies/SafeProxy.sol/SafeProxy.json',
} as const
type ArtifactName = keyof typeof artifactPaths

/** The contracts deployed at canonical addresses, in deployment order. */
export const SAFE_CONTRACT_NAMES = [
  'singleton',
  'singletonL2',
  'factory',
  'fallbackHandler',
  'signMessageLib',
  'multiSendCallOnly',
  'simulateTxAccessor',
] as const satisfies readonly ArtifactName[]
type SafeContractName = (typeof SAFE_CONTRACT_NAMES)[number]

/**
 * Where an immutable sits in a contract's runtime code (byte offset, 32 bytes): the artifact's
 * `deployedBytecode` has zeros there, the chain the value the constructor set. SimulateTxAccessor's only
 * immutable is its own address (`ACCESSOR_SINGLETON = address(this)`); safe.test.ts checks the offset
 * against the package's build-info `immutableReferences`.
 */
export const SELF_ADDRESS_IMMUTABLES: Partial<Record<SafeContractName, number>> = { simulateTxAccessor: 368 }

const require = createRequire(import.meta.url)

/** A build artifact (bytecode, ABI) of the pinned `@safe-global/safe-smart-account`. */
export function safeArtifact(name: ArtifactName): Artifact & { abi: unknown[] } {
  return require(`@safe-global/safe-smart-account/build/artifacts/contracts/${artifactPaths[name]}`)
}

function create2Address(bytecode: Hex): Address {
  return getContractAddress({ opcode: 'CREATE2', from: SAFE_SINGLETON_FACTORY, salt: ZERO_SALT, bytecode })
}

export type SafeContracts = Record<SafeContractName, Address>

/** Where the Safe contracts land (computed from the artifacts; equal to Safe's canonical v1.5.0 addresses). */
export function safeContractAddresses(): SafeContracts {
  return Object.fromEntries(
    SAFE_CONTRACT_NAMES.map((name) => [name, create2Address(safeArtifact(name).bytecode)]),
  ) as SafeContracts
}

/** The runtime code `name` has once deployed at `address`: the artifact's, with its address immutable filled in. */
export function expectedRuntimeCode(name: SafeContractName, address: Address): Hex {
  const code = safeArtifact(name).deployedBytecode
  const offset = SELF_ADDRESS_IMMUTABLES[name]
  if (offset === undefined) return code
  const at = 2 + offset * 2
  return `0x${code.slice(2, at)}${pad(address.toLowerCase() as Hex, { size: 32 }).slice(2)}${code.slice(at + 64)}`
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
