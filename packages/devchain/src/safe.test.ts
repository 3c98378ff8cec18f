import { createRequire } from 'node:module'
import { multiSendAbi } from '@guildhall/core'
import {
  type Abi,
  type Address,
  createPublicClient,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  http,
  keccak256,
  type PublicClient,
  parseAbi,
  toFunctionSelector,
  toHex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { deployDemoDao } from './demo-dao.ts'
import {
  approveHashOnChain,
  compatibilityFallbackHandlerAbi,
  deploySafes,
  ERC1271_MAGIC_VALUE,
  expectedRuntimeCode,
  SAFE_CONTRACT_NAMES,
  type SafeDeployment,
  SELF_ADDRESS_IMMUTABLES,
  safeAbi,
  safeArtifact,
  safeMessageHash,
  safeProxyFactoryAbi,
  safeRelayer,
  signHashAsSafe,
  signMessageAsSafe,
  signMessageLibAbi,
} from './safe.ts'

const chainId = 31337
// Safe's canonical v1.5.0 addresses (github.com/safe-global/safe-deployments, src/assets/v1.5.0).
const CANONICAL = {
  singleton: '0xFf51A5898e281Db6DfC7855790607438dF2ca44b',
  singletonL2: '0xEdd160fEBBD92E350D4D398fb636302fccd67C7e',
  factory: '0x14F2982D601c9458F93bd70B218933A6f8165e7b',
  fallbackHandler: '0x3EfCBb83A4A7AfcB4F68D501E2c2203a38be77f4',
  signMessageLib: '0x4FfeF8222648872B3dE295Ba1e49110E61f5b5aa',
  multiSendCallOnly: '0xA83c336B20401Af773B6219BA5027174338D1836',
  simulateTxAccessor: '0x07EfA797c55B5DdE3698d876b277aBb6B893654C',
} as const
// Their runtime code hashes as safe-deployments lists them (codeHash), for the contracts added for execution.
const CANONICAL_CODE_HASH = {
  singletonL2: '0x180193227186ccb85316c94db1f0d156ed932b14712cfaac78901899178572dc',
  multiSendCallOnly: '0xcdbdcec38d2f1c7d961b0029ff8416b7e86e9974d6f0e9c9580c7d17fcfb6663',
  simulateTxAccessor: '0x706db4bb6151f75a5b3845724174e201c59046dfbe65b4e5909ad4b88f8f752d',
} as const
// FallbackManager's storage slot: keccak256("fallback_manager.handler.address").
const FALLBACK_HANDLER_SLOT = keccak256(toHex('fallback_manager.handler.address'))
// Pre-1.3.0 ERC-1271 flavour: isValidSignature(bytes data, bytes signature) → 0x20c13b0b.
const legacyErc1271Abi = parseAbi([
  'function isValidSignature(bytes data, bytes signature) view returns (bytes4)',
])

const anvils: AnvilInstance[] = []
let client: PublicClient
let deployment: SafeDeployment
let rpcUrl: string

function account(index: number) {
  const found = anvilAccounts[index]
  if (!found) throw new Error(`no anvil account ${index}`)
  return found
}
const ada = privateKeyToAccount(account(1).privateKey)
const ben = privateKeyToAccount(account(2).privateKey)
const cleo = privateKeyToAccount(account(3).privateKey)
const dev = privateKeyToAccount(account(4).privateKey)

async function freshAnvil(): Promise<AnvilInstance> {
  const anvil = await startAnvil({ port: await getFreePort(), chainId, quiet: true })
  anvils.push(anvil)
  return anvil
}

beforeAll(async () => {
  const anvil = await freshAnvil()
  rpcUrl = anvil.url
  client = createPublicClient({ transport: http(rpcUrl), cacheTime: 0 })
  deployment = await deploySafes({ rpcUrl, chainId })
}, 30_000)
afterAll(async () => {
  await Promise.all(anvils.map((a) => a.stop()))
})

async function readSafe(address: Address) {
  const [owners, threshold, version, handlerSlot] = await Promise.all([
    client.readContract({ address, abi: safeAbi, functionName: 'getOwners' }),
    client.readContract({ address, abi: safeAbi, functionName: 'getThreshold' }),
    client.readContract({ address, abi: safeAbi, functionName: 'VERSION' }),
    client.getStorageAt({ address, slot: FALLBACK_HANDLER_SLOT }),
  ])
  return { owners, threshold, version, fallbackHandler: `0x${handlerSlot?.slice(-40)}` }
}

/** The Safe's isValidSignature answer: its return value, or 'reverted'. */
async function isValidSignature(safe: Address, hash: Hex, signature: Hex): Promise<Hex | 'reverted'> {
  try {
    return await client.readContract({
      address: safe,
      abi: compatibilityFallbackHandlerAbi,
      functionName: 'isValidSignature',
      args: [hash, signature],
    })
  } catch {
    return 'reverted'
  }
}

describe('deployment', () => {
  test('deploys the Safe v1.5.0 singleton, factory, fallback handler and SignMessageLib at the canonical addresses with the npm artifacts’ code', async () => {
    expect(deployment).toMatchObject({ chainId, ...CANONICAL })
    const names = ['singleton', 'factory', 'fallbackHandler', 'signMessageLib'] as const
    for (const name of names) {
      expect(await client.getCode({ address: deployment[name] })).toBe(safeArtifact(name).deployedBytecode)
    }
    expect(
      await client.readContract({ address: deployment.singleton, abi: safeAbi, functionName: 'VERSION' }),
    ).toBe('1.5.0')
  })

  test('deploys SafeL2, MultiSendCallOnly and SimulateTxAccessor v1.5.0 at the canonical addresses with the npm artifacts’ code and safe-deployments’ code hashes', async () => {
    expect(SAFE_CONTRACT_NAMES).toEqual(Object.keys(CANONICAL))
    for (const name of ['singletonL2', 'multiSendCallOnly', 'simulateTxAccessor'] as const) {
      expect(deployment[name]).toBe(CANONICAL[name])
      const code = await client.getCode({ address: deployment[name] })
      expect(code).toBe(expectedRuntimeCode(name, deployment[name]))
      expect(code && keccak256(code)).toBe(CANONICAL_CODE_HASH[name])
    }
    // Only SimulateTxAccessor differs from its artifact: its own address, an immutable, sits in its code.
    const accessorCode = await client.getCode({ address: deployment.simulateTxAccessor })
    expect(accessorCode).not.toBe(safeArtifact('simulateTxAccessor').deployedBytecode)
    expect(await client.getCode({ address: deployment.multiSendCallOnly })).toBe(
      safeArtifact('multiSendCallOnly').deployedBytecode,
    )
    expect(
      await client.readContract({ address: deployment.singletonL2, abi: safeAbi, functionName: 'VERSION' }),
    ).toBe('1.5.0')
  })

  test('the immutable offsets filled in are the ones solc recorded in the package’s build-info', () => {
    const require = createRequire(import.meta.url)
    const dbg =
      require('@safe-global/safe-smart-account/build/artifacts/contracts/accessors/SimulateTxAccessor.sol/SimulateTxAccessor.dbg.json') as {
        buildInfo: string
      }
    const buildInfo = require(
      `@safe-global/safe-smart-account/build/artifacts/contracts/accessors/SimulateTxAccessor.sol/${dbg.buildInfo}`,
    ) as {
      output: {
        contracts: Record<
          string,
          Record<
            string,
            { evm: { deployedBytecode: { immutableReferences?: Record<string, { start: number }[]> } } }
          >
        >
      }
    }
    const sources = {
      singleton: ['contracts/Safe.sol', 'Safe'],
      singletonL2: ['contracts/SafeL2.sol', 'SafeL2'],
      factory: ['contracts/proxies/SafeProxyFactory.sol', 'SafeProxyFactory'],
      fallbackHandler: ['contracts/handler/CompatibilityFallbackHandler.sol', 'CompatibilityFallbackHandler'],
      signMessageLib: ['contracts/libraries/SignMessageLib.sol', 'SignMessageLib'],
      multiSendCallOnly: ['contracts/libraries/MultiSendCallOnly.sol', 'MultiSendCallOnly'],
      simulateTxAccessor: ['contracts/accessors/SimulateTxAccessor.sol', 'SimulateTxAccessor'],
    } as const
    for (const name of SAFE_CONTRACT_NAMES) {
      const [file, contract] = sources[name]
      const references =
        buildInfo.output.contracts[file]?.[contract]?.evm.deployedBytecode.immutableReferences
      const offsets = Object.values(references ?? {}).flatMap((refs) => refs.map((ref) => ref.start))
      expect(offsets).toEqual(
        SELF_ADDRESS_IMMUTABLES[name] === undefined ? [] : [SELF_ADDRESS_IMMUTABLES[name]],
      )
    }
  }, 30_000)

  test('creates a 1-of-1 Safe owned by Ada and a 2-of-3 Safe owned by Ada, Ben and Cleo, both with the CompatibilityFallbackHandler', async () => {
    expect(deployment.oneOfOne).toEqual({
      address: deployment.oneOfOne.address,
      owners: [ada.address],
      threshold: 1,
    })
    expect(deployment.twoOfThree).toEqual({
      address: deployment.twoOfThree.address,
      owners: [ada.address, ben.address, cleo.address],
      threshold: 2,
    })
    expect(await readSafe(deployment.oneOfOne.address)).toEqual({
      owners: [ada.address],
      threshold: 1n,
      version: '1.5.0',
      fallbackHandler: CANONICAL.fallbackHandler.toLowerCase(),
    })
    expect(await readSafe(deployment.twoOfThree.address)).toEqual({
      owners: [ada.address, ben.address, cleo.address],
      threshold: 2n,
      version: '1.5.0',
      fallbackHandler: CANONICAL.fallbackHandler.toLowerCase(),
    })
  })

  test('is deterministic and leaves accounts 0–9 alone: a fresh chain gets the same addresses, a second call sends nothing, the demo token keeps its address', async () => {
    const other = await freshAnvil()
    const otherClient = createPublicClient({ transport: http(other.url), cacheTime: 0 })
    const again = await deploySafes({ rpcUrl: other.url, chainId })
    expect(again).toEqual(deployment)
    const nonces = await Promise.all(
      anvilAccounts.map((a) => otherClient.getTransactionCount({ address: a.address })),
    )
    expect(nonces).toEqual(anvilAccounts.map(() => 0))

    const relayerNonce = await otherClient.getTransactionCount({ address: safeRelayer().address })
    expect(await deploySafes({ rpcUrl: other.url, chainId })).toEqual(deployment)
    expect(await otherClient.getTransactionCount({ address: safeRelayer().address })).toBe(relayerNonce)

    // deployDemoDao after deploySafes: the token is account 0's first contract, as on a chain without Safes.
    const demo = await deployDemoDao({ rpcUrl: other.url, chainId })
    expect(getAddress(demo.token)).toBe(getContractAddress({ from: account(0).address, nonce: 0n }))
  }, 20_000)

  test('the ABI fragments used here exist in the npm artifacts’ ABIs', () => {
    const selectors = (abi: Abi) =>
      abi.filter((item) => item.type === 'function').map((item) => toFunctionSelector(item))
    const pairs = [
      [safeAbi, 'singleton'],
      [safeProxyFactoryAbi, 'factory'],
      [compatibilityFallbackHandlerAbi, 'fallbackHandler'],
      [signMessageLibAbi, 'signMessageLib'],
      [multiSendAbi, 'multiSendCallOnly'],
    ] as const
    for (const [ours, name] of pairs) {
      const official = selectors(safeArtifact(name).abi as Abi)
      for (const selector of selectors(ours)) expect(official).toContain(selector)
    }
    // v1.5.0's handler dropped the legacy isValidSignature(bytes,bytes) flavour.
    expect(selectors(safeArtifact('fallbackHandler').abi as Abi)).not.toContain(
      toFunctionSelector(legacyErc1271Abi[0]),
    )
  })
})

describe('ERC-1271 signatures (owners sign the SafeMessage hash)', () => {
  const message = 'Sign in to Guildhall as a Safe'

  test('viem verifyMessage accepts the 1-of-1 Safe’s signature by Ada', async () => {
    const safe = deployment.oneOfOne.address
    const signature = await signMessageAsSafe({ safe, chainId, owners: [ada], message })
    expect(signature).toHaveLength(2 + 65 * 2)
    expect(await client.verifyMessage({ address: safe, message, signature })).toBe(true)
    // Owners given as anvil addresses sign with the same keys.
    expect(await signMessageAsSafe({ safe, chainId, owners: [ada.address], message })).toBe(signature)
  })

  test('viem verifyMessage accepts the 2-of-3 Safe’s signature by any 2 owners or all 3, in any order given', async () => {
    const safe = deployment.twoOfThree.address
    for (const owners of [
      [ada, ben],
      [cleo, ada],
      [cleo, ben],
      [cleo, ben, ada],
    ]) {
      const signature = await signMessageAsSafe({ safe, chainId, owners, message })
      expect(await client.verifyMessage({ address: safe, message, signature })).toBe(true)
    }
  })

  test('viem verifyMessage rejects a signature by a non-owner', async () => {
    const oneOfOne = deployment.oneOfOne.address
    const twoOfThree = deployment.twoOfThree.address
    const byBen = await signMessageAsSafe({ safe: oneOfOne, chainId, owners: [ben], message })
    expect(await client.verifyMessage({ address: oneOfOne, message, signature: byBen })).toBe(false)
    const adaAndDev = await signMessageAsSafe({ safe: twoOfThree, chainId, owners: [ada, dev], message })
    expect(await client.verifyMessage({ address: twoOfThree, message, signature: adaAndDev })).toBe(false)
  })

  test('viem verifyMessage rejects only 1 of the 2 required owners of the 2-of-3 Safe', async () => {
    const safe = deployment.twoOfThree.address
    for (const owner of [ada, ben, cleo]) {
      const signature = await signMessageAsSafe({ safe, chainId, owners: [owner], message })
      expect(await client.verifyMessage({ address: safe, message, signature })).toBe(false)
    }
  })

  test('rejects an owner’s plain personal_sign signature, another message, and another Safe’s signature', async () => {
    const oneOfOne = deployment.oneOfOne.address
    // Ada's own EIP-191 signature is hers, not the Safe's: the Safe wants the SafeMessage hash signed.
    const plain = await ada.signMessage({ message })
    expect(await client.verifyMessage({ address: oneOfOne, message, signature: plain })).toBe(false)
    const signature = await signMessageAsSafe({ safe: oneOfOne, chainId, owners: [ada], message })
    expect(await client.verifyMessage({ address: oneOfOne, message: `${message}!`, signature })).toBe(false)
    // The SafeMessage domain binds the Safe's address: Ada's signature made for the 2-of-3 Safe is not
    // valid for the 1-of-1 Safe, although Ada alone owns it.
    const forTwoOfThree = await signMessageAsSafe({
      safe: deployment.twoOfThree.address,
      chainId,
      owners: [ada],
      message,
    })
    expect(await client.verifyMessage({ address: oneOfOne, message, signature: forTwoOfThree })).toBe(false)
  })

  test('isValidSignature(bytes32,bytes) returns 0x1626ba7e for a valid signature and reverts otherwise; the legacy isValidSignature(bytes,bytes) (0x20c13b0b) reverts', async () => {
    const safe = deployment.twoOfThree.address
    const hash = hashMessage(message)
    const valid = await signHashAsSafe({ safe, chainId, owners: [ben, cleo], hash })
    expect(await isValidSignature(safe, hash, valid)).toBe(ERC1271_MAGIC_VALUE)
    expect(ERC1271_MAGIC_VALUE).toBe('0x1626ba7e')
    const short = await signHashAsSafe({ safe, chainId, owners: [ben], hash })
    expect(await isValidSignature(safe, hash, short)).toBe('reverted')
    expect(await isValidSignature(safe, hash, '0x')).toBe('reverted')

    const legacyCall = client.call({
      to: safe,
      data: encodeFunctionData({
        abi: legacyErc1271Abi,
        functionName: 'isValidSignature',
        args: [toHex(message), valid],
      }),
    })
    await expect(legacyCall).rejects.toThrow()
  })

  test('viem verifyTypedData accepts the 2-of-3 Safe’s signature of an EIP-712 digest (signHashAsSafe)', async () => {
    const safe = deployment.twoOfThree.address
    const typedData = {
      domain: { name: 'Guildhall', version: '1', chainId, verifyingContract: CANONICAL.factory },
      types: {
        Vote: [
          { name: 'voter', type: 'address' },
          { name: 'choice', type: 'uint32' },
        ],
      },
      primaryType: 'Vote',
      message: { voter: safe, choice: 2 },
    } as const
    const signature = await signHashAsSafe({
      safe,
      chainId,
      owners: [ada, cleo],
      hash: hashTypedData(typedData),
    })
    expect(await client.verifyTypedData({ address: safe, signature, ...typedData })).toBe(true)
    const altered = { ...typedData, message: { voter: safe, choice: 1 } }
    expect(await client.verifyTypedData({ address: safe, signature, ...altered })).toBe(false)
  })
})

describe('on-chain approved hash (SignMessageLib via execTransaction, empty signature)', () => {
  test('after approveHashOnChain the 1-of-1 Safe returns 0x1626ba7e for isValidSignature(hash, 0x), and reverted before', async () => {
    const safe = deployment.oneOfOne.address
    const message = 'Approved on chain by the 1-of-1 Safe'
    const hash = hashMessage(message)
    expect(await isValidSignature(safe, hash, '0x')).toBe('reverted')
    const approved = await approveHashOnChain({ rpcUrl, chainId, safe, owners: [ada], message })
    expect(approved.hash).toBe(hash)
    expect(approved.safeMessageHash).toBe(safeMessageHash({ safe, chainId, hash }))
    expect(
      await client.readContract({
        address: safe,
        abi: safeAbi,
        functionName: 'signedMessages',
        args: [approved.safeMessageHash],
      }),
    ).toBe(1n)
    expect(await isValidSignature(safe, hash, '0x')).toBe(ERC1271_MAGIC_VALUE)
    // Only that message: another one still has no approval.
    expect(await isValidSignature(safe, hashMessage(`${message}!`), '0x')).toBe('reverted')
  })

  test('the 2-of-3 Safe approves a hash on chain with 2 owners; 1 owner cannot, and the approval is that Safe’s only', async () => {
    const safe = deployment.twoOfThree.address
    const message = 'Approved on chain by the 2-of-3 Safe'
    const hash = hashMessage(message)
    await expect(approveHashOnChain({ rpcUrl, chainId, safe, owners: [ben], message })).rejects.toThrow(
      /GS020/,
    )
    expect(await isValidSignature(safe, hash, '0x')).toBe('reverted')
    await approveHashOnChain({ rpcUrl, chainId, safe, owners: [cleo, ben], message })
    expect(await isValidSignature(safe, hash, '0x')).toBe(ERC1271_MAGIC_VALUE)
    expect(await isValidSignature(deployment.oneOfOne.address, hash, '0x')).toBe('reverted')
  })

  test('viem 2.57 verifyMessage/verifyHash return false for the approved hash with signature 0x (its ERC-6492 validator reverts on an empty signature): call isValidSignature directly', async () => {
    const safe = deployment.oneOfOne.address
    const message = 'Approved on chain, checked through viem'
    await approveHashOnChain({ rpcUrl, chainId, safe, owners: [ada], message })
    expect(await isValidSignature(safe, hashMessage(message), '0x')).toBe(ERC1271_MAGIC_VALUE)
    expect(await client.verifyMessage({ address: safe, message, signature: '0x' })).toBe(false)
    expect(await client.verifyHash({ address: safe, hash: hashMessage(message), signature: '0x' })).toBe(
      false,
    )
  })
})
