// Safe v1.3.0 and v1.4.1 on anvil (safe/versions.ts): each release at its canonical addresses, a 2-of-3 Safe
// of each (L1 and L2 singletons) that executes with its owners' signatures, and the event layouts that differ.
import { type Address, createPublicClient, http, type PublicClient, parseEther, toEventSelector } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import {
  createSafeOfVersion,
  executeSafeTransaction,
  type OlderSafeVersion,
  olderSafeAddresses,
  safeAbi,
} from './safe.ts'

const chainId = 31337
// Safe's canonical addresses (github.com/safe-global/safe-deployments, src/assets/v1.3.0 and v1.4.1).
const CANONICAL = {
  '1.3.0': {
    singleton: '0xd9Db270c1B5E3Bd161E8c8503c55cEABeE709552',
    singletonL2: '0x3E5c63644E683549055b9Be8653de26E0B4CD36E',
    factory: '0xa6B71E26C5e0845f74c812102Ca7114b6a896AB2',
    fallbackHandler: '0xf48f2B2d2a534e402487b3ee7C18c33Aec0Fe5e4',
    multiSendCallOnly: '0x40A2aCCbd92BCA938b02010E17A5b8929b49130D',
  },
  '1.4.1': {
    singleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
    singletonL2: '0x29fcB43b46531BcA003ddC8FCB67FFE91900C762',
    factory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
    fallbackHandler: '0xfd0732Dc9E303f09fCEf3a7388Ad10A83459Ec99',
    multiSendCallOnly: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
  },
} as const
const EXECUTION_SUCCESS = toEventSelector('ExecutionSuccess(bytes32,uint256)')

const owners = [1, 2, 3].map((i) => anvilAccounts[i]?.address as Address)
const recipient = anvilAccounts[7]?.address as Address
let anvil: AnvilInstance
let client: PublicClient
let target: { rpcUrl: string; chainId: number }

beforeAll(async () => {
  anvil = await startAnvil({ port: await getFreePort(), chainId, quiet: true })
  target = { rpcUrl: anvil.url, chainId }
  client = createPublicClient({ transport: http(anvil.url), cacheTime: 0 })
}, 30_000)
afterAll(async () => {
  await anvil?.stop()
})

describe.each(['1.3.0', '1.4.1'] as const)('Safe v%s', (version: OlderSafeVersion) => {
  test('its contracts land at the canonical addresses, and a Safe of each singleton executes a 2-of-3 transaction', async () => {
    expect(olderSafeAddresses(version)).toEqual(CANONICAL[version])
    for (const [l2, saltNonce] of [
      [false, 1n],
      [true, 2n],
    ] as const) {
      const safe = await createSafeOfVersion(target, { version, l2, owners, threshold: 2, saltNonce })
      expect(
        await client.readContract({ address: safe.address, abi: safeAbi, functionName: 'VERSION' }),
      ).toBe(version)
      expect(
        await client.readContract({ address: safe.address, abi: safeAbi, functionName: 'getOwners' }),
      ).toEqual(owners)
      await client.request({
        method: 'anvil_setBalance' as never,
        params: [safe.address, `0x${parseEther('2').toString(16)}`] as never,
      })
      const before = await client.getBalance({ address: recipient })
      const executed = await executeSafeTransaction(target, {
        safe: safe.address,
        signers: owners.slice(0, 2),
        to: recipient,
        value: parseEther('1'),
      })
      expect(executed.status).toBe('success')
      expect(await client.getBalance({ address: recipient })).toBe(before + parseEther('1'))
      const receipt = await client.getTransactionReceipt({ hash: executed.transactionHash })
      const success = receipt.logs.find((log) => log.topics[0] === EXECUTION_SUCCESS)
      // v1.3.0 indexes nothing of ExecutionSuccess: the Safe transaction hash is in the data, not topic 1.
      if (version === '1.3.0') {
        expect(success?.topics).toHaveLength(1)
        expect(success?.data.slice(0, 66)).toBe(executed.safeTxHash)
      } else {
        expect(success?.topics).toEqual([EXECUTION_SUCCESS, executed.safeTxHash])
      }
    }
  }, 60_000)
})
