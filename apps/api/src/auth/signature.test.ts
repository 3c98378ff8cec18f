import {
  ChainUnavailableError,
  LOCAL_CHAIN_ID,
  SIGNATURE_CHECK_GAS,
  verifyHashSignature,
  verifyPersonalSignature,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { type RecordingProxy, startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  approveHashOnChain,
  deploySafes,
  type SafeDeployment,
  signMessageAsSafe,
  signMessageAsUndeployedSafe,
} from '@guildhall/devchain/safe'
import {
  type Address,
  createPublicClient,
  createTestClient,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  serializeErc6492Signature,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startDemoChain } from '../demo/local-chain.ts'

const ada = privateKeyToAccount(anvilAccounts[1]?.privateKey as Hex)
const ben = privateKeyToAccount(anvilAccounts[2]?.privateKey as Hex)
const message = 'Sign in to Guildhall Test DAO.'
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

let anvil: AnvilInstance
let deployment: DemoDeployment
let client: PublicClient
let downClient: PublicClient

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  client = createPublicClient({ chain: foundry, transport: http(anvil.url) }) as PublicClient
  // Nothing listens there: every call fails at once, like a chain node that is down.
  downClient = createPublicClient({
    chain: foundry,
    transport: http(`http://127.0.0.1:${await getFreePort()}`, { retryCount: 0 }),
  }) as PublicClient
}, 30_000)

afterAll(() => anvil?.stop())

/** The same signature with s replaced by n − s and v flipped: also valid ECDSA, other bytes. */
function highS(signature: Hex): Hex {
  const r = signature.slice(2, 66)
  const s = BigInt(`0x${signature.slice(66, 130)}`)
  const v = Number.parseInt(signature.slice(130, 132), 16)
  return `0x${r}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}`
}

describe('externally owned accounts', () => {
  test('behavior: a valid signature is accepted without asking the chain, even when it is down', async () => {
    const signature = await ada.signMessage({ message })
    const started = performance.now()
    expect(
      await verifyPersonalSignature({ address: ada.address, message, signature, client: downClient }),
    ).toBe(true)
    expect(performance.now() - started).toBeLessThan(500)
  })

  test('behavior: a signature by another key is refused', async () => {
    const signature = await ben.signMessage({ message })
    expect(await verifyPersonalSignature({ address: ada.address, message, signature, client })).toBe(false)
  })

  test('behavior: a signature over another message is refused', async () => {
    const signature = await ada.signMessage({ message: `${message}!` })
    expect(await verifyPersonalSignature({ address: ada.address, message, signature, client })).toBe(false)
  })

  test('behavior: the high-s twin of a valid signature also verifies (so sessions dedupe on the nonce, not the bytes)', async () => {
    const signature = await ada.signMessage({ message })
    expect(
      await verifyPersonalSignature({ address: ada.address, message, signature: highS(signature), client }),
    ).toBe(true)
  })

  test.each([
    ['empty', '0x'],
    ['64 bytes', `0x${'11'.repeat(64)}`],
    ['66 bytes', `0x${'11'.repeat(66)}`],
    ['v = 29', `0x${'11'.repeat(64)}1d`],
  ] as const)('parameters: a malformed signature (%s) is refused, never thrown', async (_name, signature) => {
    expect(await verifyPersonalSignature({ address: ada.address, message, signature, client })).toBe(false)
  })

  test('behavior: an invalid signature for an account the chain cannot be asked about is "unavailable", not "invalid"', async () => {
    const signature = await ben.signMessage({ message })
    await expect(
      verifyPersonalSignature({ address: ada.address, message, signature, client: downClient }),
    ).rejects.toBeInstanceOf(ChainUnavailableError)
  })
})

describe('contract accounts', () => {
  test('behavior: a contract without ERC-1271 refuses every signature', async () => {
    const signature = await ada.signMessage({ message })
    expect(await verifyPersonalSignature({ address: deployment.token, message, signature, client })).toBe(
      false,
    )
  })
})

describe('Safe accounts (ERC-1271)', () => {
  let safes: SafeDeployment

  beforeAll(async () => {
    safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  }, 30_000)

  test("behavior: a 1-of-1 Safe's owner signature is accepted", async () => {
    const safe = safes.oneOfOne.address
    const signature = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message })
    expect(await verifyPersonalSignature({ address: safe, message, signature, client })).toBe(true)
  })

  test('behavior: a 2-of-3 Safe needs two owners', async () => {
    const safe = safes.twoOfThree.address
    const two = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada, ben], message })
    const one = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message })
    expect(await verifyPersonalSignature({ address: safe, message, signature: two, client })).toBe(true)
    expect(await verifyPersonalSignature({ address: safe, message, signature: one, client })).toBe(false)
  })

  test('behavior: the on-chain approved-hash form verifies with an empty signature', async () => {
    const safe = safes.oneOfOne.address
    const approved = `${message} (approved on chain)`
    expect(await verifyPersonalSignature({ address: safe, message: approved, signature: '0x', client })).toBe(
      false,
    )
    await approveHashOnChain({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      safe,
      owners: [ada],
      message: approved,
    })
    expect(await verifyPersonalSignature({ address: safe, message: approved, signature: '0x', client })).toBe(
      true,
    )
  })

  test('behavior: with the chain down a Safe signature is "unavailable" (503), not "invalid"', async () => {
    const safe = safes.oneOfOne.address
    const signature = await signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message })
    await expect(
      verifyPersonalSignature({ address: safe, message, signature, client: downClient }),
    ).rejects.toBeInstanceOf(ChainUnavailableError)
  })
})

describe('counterfactual Safe accounts (ERC-6492)', () => {
  // Needs the Safe factory and singleton on chain, but never the Safe itself. A salt no other test uses.
  const undeployed = {
    owners: [ada.address, ben.address],
    threshold: 2,
    saltNonce: 6492n,
    chainId: LOCAL_CHAIN_ID,
  }

  beforeAll(async () => {
    await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
  }, 30_000)

  test("behavior: an undeployed Safe's wrapped signature is accepted, and nothing gets deployed", async () => {
    const { address, signature } = await signMessageAsUndeployedSafe({
      ...undeployed,
      signers: [ada, ben],
      message,
    })
    expect(await client.getCode({ address })).toBeUndefined()
    expect(await verifyPersonalSignature({ address, message, signature, client })).toBe(true)
    expect(await client.getCode({ address })).toBeUndefined()
  })

  test('behavior: below its threshold, or for another message, it is refused', async () => {
    const one = await signMessageAsUndeployedSafe({ ...undeployed, signers: [ada], message })
    expect(
      await verifyPersonalSignature({ address: one.address, message, signature: one.signature, client }),
    ).toBe(false)
    const two = await signMessageAsUndeployedSafe({ ...undeployed, signers: [ada, ben], message })
    expect(
      await verifyPersonalSignature({
        address: two.address,
        message: `${message}!`,
        signature: two.signature,
        client,
      }),
    ).toBe(false)
  })

  test('behavior: with the chain down it is "unavailable" (503), not "invalid"', async () => {
    const { address, signature } = await signMessageAsUndeployedSafe({
      ...undeployed,
      signers: [ada, ben],
      message,
    })
    await expect(
      verifyPersonalSignature({ address, message, signature, client: downClient }),
    ).rejects.toBeInstanceOf(ChainUnavailableError)
  })
})

describe('bounds of the on-chain check (gas and time)', () => {
  // Bytecode that jumps to itself forever: a factory or wallet that burns whatever gas it is given.
  const LOOP_CODE: Hex = '0x5b600056'
  const loopingFactory: Address = '0x0000000000000000000000000000000000006492'
  const loopingWallet: Address = '0x0000000000000000000000000000000000001271'
  const hash: Hex = `0x${'42'.repeat(32)}`
  let proxy: RecordingProxy
  let proxied: PublicClient

  beforeAll(async () => {
    const chain = createTestClient({ mode: 'anvil', transport: http(anvil.url) })
    await chain.setCode({ address: loopingFactory, bytecode: LOOP_CODE })
    await chain.setCode({ address: loopingWallet, bytecode: LOOP_CODE })
    proxy = await startRecordingProxy(anvil.url)
    proxied = createPublicClient({
      chain: foundry,
      transport: http(proxy.url, { retryCount: 0 }),
    }) as PublicClient
  })
  afterAll(() => proxy?.close())

  const ethCalls = (from: number) => proxy.calls.slice(from).filter((call) => call.method === 'eth_call')

  test('behavior: an ERC-6492 signature whose factory loops is refused, and the node is asked to run it with SIGNATURE_CHECK_GAS only', async () => {
    const signature = serializeErc6492Signature({
      address: loopingFactory,
      data: '0xdeadbeef',
      signature: `0x${'11'.repeat(65)}`,
    })
    const from = proxy.calls.length
    const counterfactual: Address = '0x00000000000000000000000000000000000000aa'
    expect(await verifyHashSignature({ address: counterfactual, hash, signature, client: proxied })).toBe(
      false,
    )
    const calls = ethCalls(from)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.params[0]).toMatchObject({ gas: numberToHex(SIGNATURE_CHECK_GAS) })
  })

  test('behavior: a contract wallet whose isValidSignature loops is refused (not "unavailable"), asked with SIGNATURE_CHECK_GAS only', async () => {
    const from = proxy.calls.length
    expect(
      await verifyHashSignature({
        address: loopingWallet,
        hash,
        signature: `0x${'11'.repeat(65)}`,
        client: proxied,
      }),
    ).toBe(false)
    const calls = ethCalls(from)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.params[0]).toMatchObject({ to: loopingWallet, gas: numberToHex(SIGNATURE_CHECK_GAS) })
  })

  test('behavior: a node slower than the deadline → ChainUnavailableError at the deadline, not when the node answers', async () => {
    proxy.delayMs.set('eth_getCode', 3_000)
    try {
      const started = performance.now()
      await expect(
        verifyHashSignature({
          address: loopingWallet,
          hash,
          signature: `0x${'11'.repeat(65)}`,
          client: proxied,
          timeoutMs: 300,
        }),
      ).rejects.toBeInstanceOf(ChainUnavailableError)
      const elapsed = performance.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(290)
      expect(elapsed).toBeLessThan(2_000)
    } finally {
      proxy.delayMs.clear()
    }
  })
})
