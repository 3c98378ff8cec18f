import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  isAddressEqual,
  namehash,
  type PublicClient,
  toFunctionSelector,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { waitForTransactionReceipt } from 'viem/actions'
import { mainnet } from 'viem/chains'
import {
  getEnsAddress,
  getEnsAvatar,
  getEnsName,
  getEnsResolver,
  getEnsText,
  parseAvatarRecord,
} from 'viem/ens'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { anvilAccounts } from './accounts.ts'
import { demoSeed } from './demo-dao.ts'
import { ipfsCid } from './ipfs-gateway.ts'
import {
  demoNames,
  ensArtifacts,
  ensRegistryAbi,
  type NamedMember,
  type NameService,
  publicResolverAbi,
  reverseRegistrarAbi,
  startNameService,
} from './name-service.ts'
import { type RecordingProxy, startRecordingProxy } from './recording-proxy.ts'

let nameService: NameService
// viem's own mainnet definition, only the transport pointed at the local node: what a server reading
// names from Ethereum does.
let client: PublicClient

beforeAll(async () => {
  nameService = await startNameService()
  client = createPublicClient({ chain: mainnet, transport: http(nameService.rpcUrl) })
}, 60_000)

afterAll(() => nameService?.stop())

function member(name: NamedMember['member']): NamedMember {
  const found = nameService.deployment.members.find((m) => m.member === name)
  if (!found) throw new Error(`${name} has no records`)
  return found
}

function addressOf(name: string): Address {
  const seed = demoSeed.find((m) => m.name === name)
  const account = seed && anvilAccounts[seed.account]
  if (!account) throw new Error(`no demo member ${name}`)
  return account.address
}

describe('names', () => {
  test('default: Ada’s primary name is ada.eth, and ada.eth is her address', async () => {
    expect(await getEnsName(client, { address: addressOf('Ada') })).toBe('ada.eth')
    expect(await getEnsAddress(client, { name: 'ada.eth' })).toBe(addressOf('Ada'))
  })

  test('default: every named member’s name goes both ways', async () => {
    for (const entry of demoNames) {
      if (entry.name === null || entry.reverse !== entry.name) continue
      expect(await getEnsName(client, { address: addressOf(entry.member) })).toBe(entry.name)
      expect(await getEnsAddress(client, { name: entry.name })).toBe(addressOf(entry.member))
    }
  })

  test('behavior: a member without a name has none (Gia, Hugo, Iris)', async () => {
    for (const name of ['Gia', 'Hugo', 'Iris']) {
      expect(await getEnsName(client, { address: addressOf(name) })).toBeNull()
    }
  })

  test('behavior: a reverse record naming someone else’s name is not the member’s name (forward check)', async () => {
    // Eve’s reverse record says ada.eth, whose address is Ada’s.
    expect(member('Eve').reverse).toBe('ada.eth')
    expect(await getEnsName(client, { address: addressOf('Eve') })).toBeNull()
    // The null is the forward check’s doing: strict mode shows the Universal Resolver’s reason.
    await expect(getEnsName(client, { address: addressOf('Eve'), strict: true })).rejects.toThrow(
      /ReverseAddressMismatch/,
    )
  })

  test('behavior: an unknown name and an address nobody named resolve to null', async () => {
    expect(await getEnsAddress(client, { name: 'nobody.eth' })).toBeNull()
    expect(await getEnsText(client, { name: 'nobody.eth', key: 'avatar' })).toBeNull()
    expect(await getEnsAvatar(client, { name: 'nobody.eth' })).toBeNull()
    expect(await getEnsName(client, { address: '0x000000000000000000000000000000000000dEaD' })).toBeNull()
    await expect(getEnsAddress(client, { name: 'nobody.eth', strict: true })).rejects.toThrow(
      /ResolverNotFound/,
    )
  })

  test('default: findResolver answers the public resolver of a name', async () => {
    const resolver = await getEnsResolver(client, { name: 'ada.eth' })
    expect(isAddressEqual(resolver, nameService.deployment.publicResolver)).toBe(true)
  })

  test('behavior: without a chain, viem asks for the Universal Resolver’s address, as the spec quotes', async () => {
    const chainless = createPublicClient({ transport: http(nameService.rpcUrl) })
    await expect(getEnsName(chainless, { address: addressOf('Ada') })).rejects.toThrow(
      'client chain not configured. universalResolverAddress is required.',
    )
  })
})

describe('avatars', () => {
  const assetGatewayUrls = () => ({ ipfs: nameService.ipfsGatewayUrl })

  test('default: Ada’s avatar record is ipfs://<cid>, and resolves to the gateway’s copy of her picture', async () => {
    const record = await getEnsText(client, { name: 'ada.eth', key: 'avatar' })
    expect(record).toMatch(/^ipfs:\/\/b[a-z2-7]{58}$/)
    const avatar = await getEnsAvatar(client, { name: 'ada.eth', assetGatewayUrls: assetGatewayUrls() })
    const cid = record?.slice('ipfs://'.length)
    expect(avatar).toBe(`${nameService.ipfsGatewayUrl}/ipfs/${cid}`)

    const response = await fetch(avatar as string)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    const body = Buffer.from(await response.arrayBuffer())
    // The CID is the picture's own: the gateway serves content by its hash.
    expect(ipfsCid(body)).toBe(cid)
    expect(body.toString()).toContain('>A</text>')
  })

  test('behavior: a member with a name but no avatar record has no avatar (Finn)', async () => {
    expect(await getEnsName(client, { address: addressOf('Finn') })).toBe('finn.eth')
    expect(await getEnsAvatar(client, { name: 'finn.eth', assetGatewayUrls: assetGatewayUrls() })).toBeNull()
  })

  test('error: a broken avatar record (a CID the gateway lacks) gives viem’s “Unable to resolve ENS avatar URI”', async () => {
    const record = await getEnsText(client, { name: 'dev.eth', key: 'avatar' })
    expect(record).toBe(member('Dev').avatar)
    const response = await fetch(`${nameService.ipfsGatewayUrl}/ipfs/${record?.slice('ipfs://'.length)}`, {
      method: 'HEAD',
    })
    expect(response.status).toBe(404)
    // getEnsAvatar swallows the error into null; parsing the record shows it.
    expect(await getEnsAvatar(client, { name: 'dev.eth', assetGatewayUrls: assetGatewayUrls() })).toBeNull()
    await expect(
      parseAvatarRecord(client, { record: record as string, gatewayUrls: assetGatewayUrls() }),
    ).rejects.toThrow(`Unable to resolve ENS avatar URI "${record}"`)
  })
  test('error: an NFT avatar record without a token id gives viem’s “ENS NFT avatar URI is invalid”', async () => {
    // Finn, who owns finn.eth, sets the record for this test and clears it after.
    const finn = anvilAccounts.find((a) => a.address === addressOf('Finn'))
    const wallet = createWalletClient({
      account: privateKeyToAccount(finn?.privateKey as Hex),
      chain: mainnet,
      transport: http(nameService.rpcUrl),
    })
    const record = 'eip155:1/erc721:0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB'
    const setAvatar = async (value: string) => {
      const hash = await wallet.writeContract({
        address: nameService.deployment.publicResolver,
        abi: publicResolverAbi,
        functionName: 'setText',
        args: [namehash('finn.eth'), 'avatar', value],
      })
      expect((await waitForTransactionReceipt(client, { hash })).status).toBe('success')
    }
    await setAvatar(record)
    try {
      expect(await getEnsText(client, { name: 'finn.eth', key: 'avatar' })).toBe(record)
      // getEnsAvatar swallows the error into null; parsing the record shows it.
      expect(
        await getEnsAvatar(client, { name: 'finn.eth', assetGatewayUrls: assetGatewayUrls() }),
      ).toBeNull()
      await expect(parseAvatarRecord(client, { record, gatewayUrls: assetGatewayUrls() })).rejects.toThrow(
        'ENS NFT avatar URI is invalid. Token ID not found',
      )
    } finally {
      await setAvatar('')
    }
  })
})

describe('deployment', () => {
  let proxy: RecordingProxy
  afterAll(() => proxy?.close())

  test('behavior: lookups batch through Multicall3 on this chain: all members’ names in one eth_call', async () => {
    proxy = await startRecordingProxy(nameService.rpcUrl)
    const batching = createPublicClient({
      chain: mainnet,
      transport: http(proxy.url),
      // viem's default batch of 1024 bytes holds about 3 of these lookups; 9 need a larger one.
      batch: { multicall: { batchSize: 8192, wait: 16 } },
    })
    const members = demoSeed.map((m) => m.name)
    const names = await Promise.all(members.map((name) => getEnsName(batching, { address: addressOf(name) })))
    expect(Object.fromEntries(members.map((name, i) => [name, names[i]]))).toEqual({
      Ada: 'ada.eth',
      Ben: 'ben.eth',
      Cleo: 'cleo.eth',
      Dev: 'dev.eth',
      Eve: null,
      Finn: 'finn.eth',
      Gia: null,
      Hugo: null,
      Iris: null,
    })
    const targets = proxy.calls
      .filter((call) => call.method === 'eth_call')
      .map((call) => (call.params[0] as { to: Address }).to)
    expect(targets).toHaveLength(1)
    expect(targets.every((to) => isAddressEqual(to, mainnet.contracts.multicall3.address))).toBe(true)
  })

  test('the ABI fragments used here exist in the npm artifacts’ ABIs', () => {
    const require = createRequire(import.meta.url)
    const selectors = (abi: Abi) =>
      abi.filter((item) => item.type === 'function').map((item) => toFunctionSelector(item))
    const constructorTypes = (abi: Abi) =>
      abi.flatMap((item) => (item.type === 'constructor' ? item.inputs.map((input) => input.type) : []))
    const pairs = [
      [ensRegistryAbi, ensArtifacts.registry],
      [publicResolverAbi, ensArtifacts.publicResolver],
      [reverseRegistrarAbi, ensArtifacts.reverseRegistrar],
    ] as const
    for (const [ours, artifact] of pairs) {
      const official = (require(artifact) as { abi: Abi }).abi
      for (const selector of selectors(ours)) expect(selectors(official)).toContain(selector)
      expect(constructorTypes(ours)).toEqual(constructorTypes(official))
    }
  })
})
