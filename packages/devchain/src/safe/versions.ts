// Older Safe releases on the development chain, for tests of what reads any DAO's Safe (the treasury index):
// v1.3.0 (`@gnosis.pm/safe-contracts`, common on mainnet; its ExecutionSuccess and owner events index
// nothing) and v1.4.1 (`@safe-global/safe-contracts`), each byte for byte from its build artifacts at its
// canonical addresses, with its L2 singleton and MultiSendCallOnly; and a Safe of any release created and
// driven by its owners' signatures. Test-only: both packages are devDependencies.
import { createRequire } from 'node:module'
import {
  type Address,
  concatHex,
  encodeFunctionData,
  getContractAddress,
  type Hash,
  type Hex,
  zeroAddress,
} from 'viem'
import {
  SAFE_SINGLETON_FACTORY,
  SINGLETON_FACTORY_RUNTIME,
  safeAbi,
  safeContractAddresses,
  safeInitializer,
  safeProxyFactoryAbi,
  ZERO_SALT,
} from './contracts.ts'
import { deploySafes } from './deploy.ts'
import { type ChainTarget, clients, fundRelayer, safeRelayer, successfulReceipt } from './relayer.ts'
import { ownerSignatures, type SafeOwnerSigner } from './signatures.ts'

/**
 * Arachnid's deterministic-deployment proxy, which anvil installs at start: Safe deployed v1.3.0 through it
 * (salt 0); later releases go through Safe's own singleton factory.
 */
export const DETERMINISTIC_DEPLOYMENT_PROXY: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

export type OlderSafeVersion = '1.3.0' | '1.4.1'
export type SafeVersion = OlderSafeVersion | '1.5.0'

type VersionContract = 'singleton' | 'singletonL2' | 'factory' | 'fallbackHandler' | 'multiSendCallOnly'

const releases = {
  '1.3.0': {
    pkg: '@gnosis.pm/safe-contracts',
    deployer: DETERMINISTIC_DEPLOYMENT_PROXY,
    paths: {
      singleton: 'GnosisSafe.sol/GnosisSafe.json',
      singletonL2: 'GnosisSafeL2.sol/GnosisSafeL2.json',
      factory: 'proxies/GnosisSafeProxyFactory.sol/GnosisSafeProxyFactory.json',
      fallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
      multiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
    },
  },
  '1.4.1': {
    pkg: '@safe-global/safe-contracts',
    deployer: SAFE_SINGLETON_FACTORY,
    paths: {
      singleton: 'Safe.sol/Safe.json',
      singletonL2: 'SafeL2.sol/SafeL2.json',
      factory: 'proxies/SafeProxyFactory.sol/SafeProxyFactory.json',
      fallbackHandler: 'handler/CompatibilityFallbackHandler.sol/CompatibilityFallbackHandler.json',
      multiSendCallOnly: 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly.json',
    },
  },
} as const satisfies Record<
  OlderSafeVersion,
  { pkg: string; deployer: Address; paths: Record<VersionContract, string> }
>

const require = createRequire(import.meta.url)

/** A build artifact of an older release (its full ABI, creation and runtime code). */
export function olderSafeArtifact(
  version: OlderSafeVersion,
  name: VersionContract,
): { abi: unknown[]; bytecode: Hex; deployedBytecode: Hex } {
  const { pkg, paths } = releases[version]
  return require(`${pkg}/build/artifacts/contracts/${paths[name]}`)
}

export type OlderSafeContracts = Record<VersionContract, Address>

/** Where a release's contracts land: its canonical addresses (safe-deployments), computed from the artifacts. */
export function olderSafeAddresses(version: OlderSafeVersion): OlderSafeContracts {
  const names = Object.keys(releases[version].paths) as VersionContract[]
  return Object.fromEntries(
    names.map((name) => [
      name,
      getContractAddress({
        opcode: 'CREATE2',
        from: releases[version].deployer,
        salt: ZERO_SALT,
        bytecode: olderSafeArtifact(version, name).bytecode,
      }),
    ]),
  ) as OlderSafeContracts
}

/**
 * Deploys a release's singleton, L2 singleton, proxy factory, fallback handler and MultiSendCallOnly at
 * their canonical addresses (sent by `safeRelayer()`, so accounts 0–9 keep their nonces) and checks each
 * runtime code against the artifact. Whatever is already there is left alone.
 */
export async function deployOlderSafe(
  target: ChainTarget,
  version: OlderSafeVersion,
): Promise<OlderSafeContracts> {
  const c = clients(target)
  await fundRelayer(c)
  const { deployer } = releases[version]
  const deployerCode = await c.publicClient.getCode({ address: deployer })
  if (!deployerCode || deployerCode === '0x') {
    if (deployer !== SAFE_SINGLETON_FACTORY)
      throw new Error(`no deterministic-deployment proxy at ${deployer}`)
    await c.testClient.setCode({ address: deployer, bytecode: SINGLETON_FACTORY_RUNTIME })
  }
  const addresses = olderSafeAddresses(version)
  const sent: Hash[] = []
  for (const [name, address] of Object.entries(addresses) as [VersionContract, Address][]) {
    const code = await c.publicClient.getCode({ address })
    if (code && code !== '0x') continue
    sent.push(
      await c.walletClient.sendTransaction({
        account: safeRelayer(),
        to: deployer,
        data: concatHex([ZERO_SALT, olderSafeArtifact(version, name).bytecode]),
      }),
    )
  }
  for (const hash of sent) await successfulReceipt(c, hash, `deploying Safe v${version}`)
  for (const [name, address] of Object.entries(addresses) as [VersionContract, Address][]) {
    const code = await c.publicClient.getCode({ address })
    if (code !== olderSafeArtifact(version, name).deployedBytecode)
      throw new Error(`Safe v${version} ${name} at ${address} does not have the artifact's code`)
  }
  return addresses
}

export type CreatedSafe = { address: Address; version: SafeVersion; l2: boolean; transactionHash: Hash }

/**
 * Creates a Safe of `version` (its contracts deployed first when missing) with these owners and threshold
 * and the release's CompatibilityFallbackHandler.
 */
export async function createSafeOfVersion(
  target: ChainTarget,
  {
    version,
    l2 = false,
    owners,
    threshold,
    saltNonce,
  }: { version: SafeVersion; l2?: boolean; owners: readonly Address[]; threshold: number; saltNonce: bigint },
): Promise<CreatedSafe> {
  const c = clients(target)
  let contracts: { singleton: Address; factory: Address; fallbackHandler: Address }
  if (version === '1.5.0') {
    await deploySafes(target)
    const current = safeContractAddresses()
    contracts = { ...current, singleton: l2 ? current.singletonL2 : current.singleton }
  } else {
    const older = await deployOlderSafe(target, version)
    contracts = { ...older, singleton: l2 ? older.singletonL2 : older.singleton }
  }
  const initializer = safeInitializer({ owners, threshold, fallbackHandler: contracts.fallbackHandler })
  const args = [contracts.singleton, initializer, saltNonce] as const
  const { result: address } = await c.publicClient.simulateContract({
    account: safeRelayer(),
    address: contracts.factory,
    abi: safeProxyFactoryAbi,
    functionName: 'createProxyWithNonce',
    args,
  })
  const transactionHash = await c.walletClient.writeContract({
    account: safeRelayer(),
    address: contracts.factory,
    abi: safeProxyFactoryAbi,
    functionName: 'createProxyWithNonce',
    args,
  })
  await successfulReceipt(c, transactionHash, `creating a Safe v${version}`)
  return { address, version, l2, transactionHash }
}

/** A Safe transaction's fields besides the nonce (read from the Safe) and the signatures. */
export type SafeTransactionFields = {
  to: Address
  value?: bigint
  data?: Hex
  /** 0 CALL, 1 DELEGATECALL. */
  operation?: 0 | 1
  /** Above 0, a failing call emits ExecutionFailure and uses the nonce; 0 reverts the whole transaction. */
  safeTxGas?: bigint
}

/**
 * Signs a Safe transaction at the Safe's current nonce by `signers` (enough to meet the threshold) and
 * sends `execTransaction`, from `safeRelayer()` or through `relay` (a contract that forwards the call:
 * then the transaction's input is the relay's, not the Safe's). Resolves with the transaction hash and the
 * Safe transaction hash once mined, whatever its outcome.
 */
export async function executeSafeTransaction(
  target: ChainTarget,
  {
    safe,
    signers,
    relay,
    ...tx
  }: SafeTransactionFields & {
    safe: Address
    signers: readonly SafeOwnerSigner[]
    relay?: (execCalldata: Hex) => { to: Address; data: Hex }
  },
): Promise<{ transactionHash: Hash; safeTxHash: Hash; nonce: bigint; status: 'success' | 'reverted' }> {
  const c = clients(target)
  await fundRelayer(c)
  const fields = [
    tx.to,
    tx.value ?? 0n,
    tx.data ?? '0x',
    tx.operation ?? 0,
    tx.safeTxGas ?? 0n,
    0n,
    0n,
    zeroAddress,
    zeroAddress,
  ] as const
  const nonce = await c.publicClient.readContract({ address: safe, abi: safeAbi, functionName: 'nonce' })
  const safeTxHash = await c.publicClient.readContract({
    address: safe,
    abi: safeAbi,
    functionName: 'getTransactionHash',
    args: [...fields, nonce],
  })
  const signatures = await ownerSignatures(signers, safeTxHash)
  const execCalldata = encodeFunctionData({
    abi: safeAbi,
    functionName: 'execTransaction',
    args: [...fields, signatures],
  })
  const call = relay ? relay(execCalldata) : { to: safe, data: execCalldata }
  const transactionHash = await c.walletClient.sendTransaction({
    account: safeRelayer(),
    ...call,
    // A fixed limit: estimation would refuse a transaction that reverts, which a test may want mined.
    gas: 3_000_000n,
  })
  const receipt = await c.publicClient.waitForTransactionReceipt({
    hash: transactionHash,
    pollingInterval: 50,
  })
  return { transactionHash, safeTxHash, nonce, status: receipt.status }
}
