// The demo's Safes on the development chain: Safe v1.5.0 at its canonical addresses, a 1-of-1 and a 2-of-3.
import { type Address, concatHex, type Hash } from 'viem'
import { anvilAccounts } from '../accounts.ts'
import {
  predictSafeAddress,
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
import { type ChainTarget, clients, fundRelayer, safeRelayer, successfulReceipt } from './relayer.ts'

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

function anvilAddress(index: number): Address {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found.address
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
