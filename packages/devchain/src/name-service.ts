// The local name service (ADR 026): a second anvil, with chain id 1, carrying ENS — the registry, public
// resolver and reverse registrar byte for byte from the pinned `@ensdomains/ens` and `@ensdomains/resolver`
// build artifacts — and our own Universal Resolver at viem's mainnet `ensUniversalResolver` address, so
// viem's ENS actions (and wagmi's and RainbowKit's on top of them) work against it unchanged. Demo members
// get names, reverse records and avatars served by a stand-in IPFS gateway. For the server's lookups and the
// tests only: never offered to a wallet.
import { createRequire } from 'node:module'
import {
  type Address,
  type Chain,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hash,
  type Hex,
  http,
  labelhash,
  namehash,
  parseAbi,
  zeroHash,
} from 'viem'
import { mainnet } from 'viem/chains'
import { anvilAccounts } from './accounts.ts'
import { type AnvilInstance, getFreePort, startAnvil } from './anvil.ts'
import { demoSeed } from './demo-dao.ts'
import {
  localUniversalResolverAbi,
  localUniversalResolverBytecode,
} from './generated/local-universal-resolver.ts'
import { type IpfsFile, type IpfsGateway, ipfsCid, startIpfsGateway } from './ipfs-gateway.ts'
import { installMulticall3 } from './multicall3.ts'

/** What the name-service chain is called wherever it is shown: it is not Ethereum, whatever its id says. */
export const NAME_SERVICE_LABEL = 'Local name service (chain 1)'

/** viem's mainnet definition (its Universal Resolver and Multicall3 addresses) on the local node. */
export function nameServiceChain(rpcUrl: string): Chain {
  return defineChain({ ...mainnet, name: NAME_SERVICE_LABEL, rpcUrls: { default: { http: [rpcUrl] } } })
}

type DemoMemberName = (typeof demoSeed)[number]['name']

/**
 * Who gets which record. `avatar`: `image` is an `ipfs://` record of a picture the gateway serves, `missing`
 * one of a CID it does not have (the broken-avatar path). `reverse` is the name the member's reverse record
 * claims; Eve claims ada.eth, whose forward address is Ada's, so her name must not resolve. Gia, Hugo and Iris
 * have nothing: the shortened-address path.
 */
export const demoNames = [
  { member: 'Ada', name: 'ada.eth', avatar: 'image', reverse: 'ada.eth', colour: '#7c3aed' },
  { member: 'Ben', name: 'ben.eth', avatar: 'image', reverse: 'ben.eth', colour: '#0e7490' },
  { member: 'Cleo', name: 'cleo.eth', avatar: 'image', reverse: 'cleo.eth', colour: '#b45309' },
  { member: 'Dev', name: 'dev.eth', avatar: 'missing', reverse: 'dev.eth', colour: null },
  { member: 'Eve', name: null, avatar: null, reverse: 'ada.eth', colour: null },
  { member: 'Finn', name: 'finn.eth', avatar: null, reverse: 'finn.eth', colour: null },
] as const satisfies readonly {
  member: DemoMemberName
  name: string | null
  avatar: 'image' | 'missing' | null
  reverse: string | null
  colour: string | null
}[]

export type NamedMember = {
  member: DemoMemberName
  address: Address
  /** The name registered to the member, whose address record is the member's. */
  name: string | null
  /** The `avatar` text record, as stored. */
  avatar: string | null
  /** The name the member's reverse record claims. */
  reverse: string | null
}

export type NameServiceDeployment = {
  registry: Address
  publicResolver: Address
  reverseRegistrar: Address
  /** viem's mainnet `ensUniversalResolver` address, where our Universal Resolver's code was put. */
  universalResolver: Address
  members: NamedMember[]
}

/** A square picture with the member's initial: small, made here, nothing to credit. */
function avatarImage(member: string, colour: string): IpfsFile {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">' +
    `<rect width="96" height="96" fill="${colour}"/>` +
    '<text x="48" y="64" font-family="system-ui, sans-serif" font-size="48" font-weight="600" ' +
    `text-anchor="middle" fill="#ffffff">${member.slice(0, 1)}</text></svg>`
  return { contentType: 'image/svg+xml', body: Buffer.from(svg) }
}

/** The avatars the stand-in gateway serves, by CID. */
function demoAvatarFiles(): Map<string, IpfsFile> {
  const files = new Map<string, IpfsFile>()
  for (const entry of demoNames) {
    if (entry.avatar !== 'image') continue
    const file = avatarImage(entry.member, entry.colour)
    files.set(ipfsCid(file.body), file)
  }
  return files
}

/** A CID of content the gateway does not have, so its avatar cannot be fetched. */
const MISSING_AVATAR_CID = ipfsCid(Buffer.from('an avatar nobody uploaded'))

function avatarRecord(entry: (typeof demoNames)[number]): string | null {
  if (entry.avatar === 'image') return `ipfs://${ipfsCid(avatarImage(entry.member, entry.colour).body)}`
  if (entry.avatar === 'missing') return `ipfs://${MISSING_AVATAR_CID}`
  return null
}

function memberAddress(member: DemoMemberName): Address {
  const seed = demoSeed.find((m) => m.name === member)
  const account = seed && anvilAccounts[seed.account]
  if (!account) throw new Error(`no demo member ${member}`)
  return account.address
}

const require = createRequire(import.meta.url)

/** Creation code from the pinned ENS packages' build artifacts. */
function ensBytecode(artifact: string): Hex {
  const { bytecode } = require(artifact) as { bytecode?: Hex }
  if (!bytecode || bytecode === '0x') throw new Error(`${artifact} has no bytecode`)
  return bytecode
}

// Only the functions called here, in the artifacts' signatures (name-service.test.ts checks them).
export const ensRegistryAbi = parseAbi([
  'constructor()',
  'function setSubnodeOwner(bytes32 node, bytes32 label, address owner) returns (bytes32)',
  'function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl)',
  'function setOwner(bytes32 node, address owner)',
])
export const publicResolverAbi = parseAbi([
  'constructor(address _ens)',
  'function setAddr(bytes32 node, address a)',
  'function setText(bytes32 node, string key, string value)',
])
export const reverseRegistrarAbi = parseAbi([
  'constructor(address ensAddr, address resolverAddr)',
  'function setName(string name) returns (bytes32)',
])

export const ensArtifacts = {
  registry: '@ensdomains/ens/build/contracts/ENSRegistry.json',
  publicResolver: '@ensdomains/resolver/build/contracts/PublicResolver.json',
  reverseRegistrar: '@ensdomains/resolver/build/contracts/ReverseRegistrar.json',
} as const

/**
 * Deploys ENS on the chain at `rpcUrl` (id 1) from anvil account 0, registers the demo names, and puts our
 * Universal Resolver and Multicall3 at viem's mainnet addresses for them.
 */
export async function deployNameService(rpcUrl: string): Promise<NameServiceDeployment> {
  const chain = nameServiceChain(rpcUrl)
  const options = { chain, transport: http(rpcUrl), pollingInterval: 50 }
  const publicClient = createPublicClient(options)
  const walletClient = createWalletClient(options)
  const testClient = createTestClient({ ...options, mode: 'anvil' })
  const actual = await publicClient.getChainId()
  if (actual !== mainnet.id) throw new Error(`${rpcUrl} is chain ${actual}, expected ${mainnet.id}`)

  const mined = async (hash: Hash, what: string) => {
    const receipt = await publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
      timeout: 30_000,
    })
    if (receipt.status !== 'success') throw new Error(`name service: ${what} (${hash}) reverted`)
    return receipt
  }
  const deployer = anvilAccounts[0]?.address as Address
  const deploy = async (hash: Hash, what: string): Promise<Address> => {
    const address = (await mined(hash, `deploying ${what}`)).contractAddress
    if (!address) throw new Error(`name service: ${what} has no contract address`)
    return address
  }

  const registry = await deploy(
    await walletClient.deployContract({
      account: deployer,
      abi: ensRegistryAbi,
      bytecode: ensBytecode(ensArtifacts.registry),
    }),
    'the registry',
  )
  const publicResolver = await deploy(
    await walletClient.deployContract({
      account: deployer,
      abi: publicResolverAbi,
      bytecode: ensBytecode(ensArtifacts.publicResolver),
      args: [registry],
    }),
    'the public resolver',
  )
  const reverseRegistrar = await deploy(
    await walletClient.deployContract({
      account: deployer,
      abi: reverseRegistrarAbi,
      bytecode: ensBytecode(ensArtifacts.reverseRegistrar),
      args: [registry, publicResolver],
    }),
    'the reverse registrar',
  )

  const registryWrite = { account: deployer, address: registry, abi: ensRegistryAbi } as const
  const resolverWrite = { account: deployer, address: publicResolver, abi: publicResolverAbi } as const
  // Transactions are sent in order and awaited together: anvil mines them in the order sent.
  const pending: [Hash, string][] = []
  const send = async (what: string, hash: Promise<Hash>) => pending.push([await hash, what])

  // The deployer owns `eth` and `reverse`; `addr.reverse` belongs to the reverse registrar, as on mainnet.
  await send(
    'eth',
    walletClient.writeContract({
      ...registryWrite,
      functionName: 'setSubnodeOwner',
      args: [zeroHash, labelhash('eth'), deployer],
    }),
  )
  await send(
    'reverse',
    walletClient.writeContract({
      ...registryWrite,
      functionName: 'setSubnodeOwner',
      args: [zeroHash, labelhash('reverse'), deployer],
    }),
  )
  await send(
    'addr.reverse',
    walletClient.writeContract({
      ...registryWrite,
      functionName: 'setSubnodeOwner',
      args: [namehash('reverse'), labelhash('addr'), reverseRegistrar],
    }),
  )

  const members: NamedMember[] = demoNames.map((entry) => ({
    member: entry.member,
    address: memberAddress(entry.member),
    name: entry.name,
    avatar: avatarRecord(entry),
    reverse: entry.reverse,
  }))
  for (const { name, address, avatar } of members) {
    if (name === null) continue
    const [label = ''] = name.split('.')
    const node = namehash(name)
    // Records are written while the deployer owns the name, then the name goes to its member.
    await send(
      name,
      walletClient.writeContract({
        ...registryWrite,
        functionName: 'setSubnodeRecord',
        args: [namehash('eth'), labelhash(label), deployer, publicResolver, 0n],
      }),
    )
    await send(
      `${name} address`,
      walletClient.writeContract({ ...resolverWrite, functionName: 'setAddr', args: [node, address] }),
    )
    if (avatar !== null) {
      await send(
        `${name} avatar`,
        walletClient.writeContract({
          ...resolverWrite,
          functionName: 'setText',
          args: [node, 'avatar', avatar],
        }),
      )
    }
    await send(
      `${name} owner`,
      walletClient.writeContract({ ...registryWrite, functionName: 'setOwner', args: [node, address] }),
    )
  }
  for (const { member, address, reverse } of members) {
    if (reverse === null) continue
    await send(
      `${member}'s reverse record`,
      walletClient.writeContract({
        account: address,
        address: reverseRegistrar,
        abi: reverseRegistrarAbi,
        functionName: 'setName',
        args: [reverse],
      }),
    )
  }
  for (const [hash, what] of pending) await mined(hash, what)

  // Deployed normally so its constructor writes the registry into the runtime code (an immutable); that code
  // is then copied to the address viem calls. Storage would not be copied, so the contract keeps none.
  const deployedResolver = await deploy(
    await walletClient.deployContract({
      account: deployer,
      abi: localUniversalResolverAbi,
      bytecode: localUniversalResolverBytecode,
      args: [registry],
    }),
    'the Universal Resolver',
  )
  const universalResolver = mainnet.contracts.ensUniversalResolver.address
  const runtime = await publicClient.getCode({ address: deployedResolver })
  if (!runtime) throw new Error('name service: the Universal Resolver has no runtime code')
  await testClient.setCode({ address: universalResolver, bytecode: runtime })
  await installMulticall3(testClient)

  return { registry, publicResolver, reverseRegistrar, universalResolver, members }
}

export type NameService = {
  /** The chain's JSON-RPC URL (127.0.0.1): for the server's lookups, never for a wallet. */
  rpcUrl: string
  /** The stand-in IPFS gateway's base URL. */
  ipfsGatewayUrl: string
  deployment: NameServiceDeployment
  /** Stops the gateway and the chain. */
  stop(): Promise<void>
}

/**
 * Starts the local name service: anvil with chain id 1 on a free port, ENS and the demo names deployed afresh
 * (nothing is kept between runs; every run gives the same addresses and records), and the stand-in gateway.
 */
export async function startNameService(): Promise<NameService> {
  let anvil: AnvilInstance | undefined
  let gateway: IpfsGateway | undefined
  const stop = async () => {
    await gateway?.close()
    await anvil?.stop()
  }
  try {
    anvil = await startAnvil({ port: await getFreePort(), chainId: mainnet.id, quiet: true })
    const deployment = await deployNameService(anvil.url)
    gateway = await startIpfsGateway(demoAvatarFiles())
    return { rpcUrl: anvil.url, ipfsGatewayUrl: gateway.url, deployment, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
