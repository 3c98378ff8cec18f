// The demo's Safes on the development chain: Safe v1.5.0 at its canonical addresses, a 1-of-1 and a 2-of-3.
import { type Address, concatHex, type Hash } from 'viem'
import { anvilAccounts } from '../accounts.ts'
import {
  expectedRuntimeCode,
  predictSafeAddress,
  SAFE_CONTRACT_NAMES,
  SAFE_SINGLETON_FACTORY,
  SAFE_VERSION,
  type SafeContracts,
  SINGLETON_FACTORY_RUNTIME,
  safeArtifact,
  safeContractAddresses,
  safeInitializer,
  safeProxyFactoryAbi,
  ZERO_SALT,
} from './contracts.ts'
import {
  type ChainTarget,
  type Clients,
  clients,
  fundRelayer,
  safeRelayer,
  successfulReceipt,
} from './relayer.ts'

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
} as const satisfies Record<string, DemoSafeSpec>

function anvilAddress(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
}

/**
 * Deploys Safe v1.5.0 (the Safe and SafeL2 singletons, SafeProxyFactory, CompatibilityFallbackHandler,
 * SignMessageLib, MultiSendCallOnly, SimulateTxAccessor) at the canonical addresses, then a 1-of-1 Safe (Ada) and a 2-of-3 Safe (Ada, Ben, Cleo). Deterministic: the
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
  const deployments: { name: (typeof SAFE_CONTRACT_NAMES)[number]; hash: Hash }[] = []
  for (const name of SAFE_CONTRACT_NAMES) {
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
  for (const name of SAFE_CONTRACT_NAMES) {
    const code = await c.publicClient.getCode({ address: contracts[name] })
    if (code !== expectedRuntimeCode(name, contracts[name])) {
      throw new Error(`Safe ${name} at ${contracts[name]} does not have the v${SAFE_VERSION} code`)
    }
  }

  const safes = {} as Record<keyof typeof demoSafes, DemoSafe>
  const creations: Hash[] = []
  for (const key of Object.keys(demoSafes) as (keyof typeof demoSafes)[]) {
    const { safe, creation } = await sendSafeCreation(c, demoSafes[key])
    safes[key] = safe
    if (creation) creations.push(creation)
  }
  for (const hash of creations) await successfulReceipt(c, hash, 'creating a demo Safe')
  for (const safe of Object.values(safes)) await assertSafeCreated(c, safe)

  return { chainId, ...contracts, oneOfOne: safes.oneOfOne, twoOfThree: safes.twoOfThree }
}

export type DemoSafeSpec = { owners: readonly number[]; threshold: number; saltNonce: bigint }

/**
 * The Safe `spec` describes (owners as anvil account indexes) and, unless it exists already, the hash of
 * the `createProxyWithNonce` transaction sent for it by `safeRelayer()` (not yet mined).
 */
export async function sendSafeCreation(
  c: Clients,
  spec: DemoSafeSpec,
): Promise<{ safe: DemoSafe; creation: Hash | null }> {
  const contracts = safeContractAddresses()
  const owners = spec.owners.map(anvilAddress)
  const initializer = safeInitializer({
    owners,
    threshold: spec.threshold,
    fallbackHandler: contracts.fallbackHandler,
  })
  const address = predictSafeAddress({ ...contracts, initializer, saltNonce: spec.saltNonce })
  const safe = { address, owners, threshold: spec.threshold }
  const code = await c.publicClient.getCode({ address })
  if (code && code !== '0x') return { safe, creation: null }
  const creation = await c.walletClient.writeContract({
    account: safeRelayer(),
    address: contracts.factory,
    abi: safeProxyFactoryAbi,
    functionName: 'createProxyWithNonce',
    args: [contracts.singleton, initializer, spec.saltNonce],
  })
  return { safe, creation }
}

export async function assertSafeCreated(c: Clients, safe: DemoSafe) {
  const code = await c.publicClient.getCode({ address: safe.address })
  if (!code || code === '0x') throw new Error(`no Safe was created at ${safe.address}`)
}
