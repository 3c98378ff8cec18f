// The names section of `npm run bench`: how fast the leader's refresher resolves a cold table. 1,000
// addresses on the local name service (ENS on anvil, chain id 1), half of them with a forward-checked
// primary name and an ipfs:// avatar record, half with none (most holders have no name), all asked at once
// and refreshed from nothing, through a recording proxy that counts the RPC calls.

import { memberStats, openDatabase } from '@guildhall/api/database'
import { NameProfiles, NameRefresher, nameLookupClient } from '@guildhall/api/operations'
import { NAMES_PER_REQUEST_MAX } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { startNameService } from '@guildhall/devchain/name-service'
import { startRecordingProxy } from '@guildhall/devchain/recording-proxy'
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hash,
  http,
  labelhash,
  namehash,
  parseAbi,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import type { NamesBenchResult } from '../harness/schema.ts'
import { round1 } from '../harness/stats.ts'

const ADDRESSES = 1_000
/** Every other address gets a name. */
const NAMED_EVERY = 2
const CID = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

const registryAbi = parseAbi([
  'function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl)',
])
const resolverAbi = parseAbi([
  'function setAddr(bytes32 node, address a)',
  'function setText(bytes32 node, string key, string value)',
])
const reverseAbi = parseAbi(['function setName(string name) returns (bytes32)'])

async function runNamesBench({ log }: { log: (message: string) => void }): Promise<NamesBenchResult> {
  const nameService = await startNameService()
  const database = await openDatabase()
  const proxy = await startRecordingProxy(nameService.rpcUrl)
  try {
    await database.migrate()
    log(`registering ${ADDRESSES / NAMED_EVERY} names for ${ADDRESSES} addresses on the local name service`)
    const addresses = Array.from({ length: ADDRESSES }, () => privateKeyToAddress(generatePrivateKey()))
    await registerNames(nameService.rpcUrl, nameService.deployment, addresses)

    let clock = new Date()
    const now = () => clock
    const gateways = { ipfs: [nameService.ipfsGatewayUrl], arweave: [] }
    const profiles = new NameProfiles({ db: database.db, now, gateways })
    const refresher = new NameRefresher({
      db: database.db,
      client: nameLookupClient(proxy.url),
      gateways,
      now,
    })
    // Only listed members' names are looked up (ADRs 033, 037): the addresses are holders of a token unit.
    await database.db.insert(memberStats).values(addresses.map((address) => ({ address, balance: 1n })))
    for (let i = 0; i < addresses.length; i += NAMES_PER_REQUEST_MAX) {
      await profiles.lookup(addresses.slice(i, i + NAMES_PER_REQUEST_MAX))
    }
    log(`refreshing ${ADDRESSES} queued addresses cold`)
    proxy.calls.length = 0
    const started = performance.now()
    let resolved = 0
    for (
      let pass = await refresher.refreshQueued();
      pass.resolved > 0;
      pass = await refresher.refreshQueued()
    ) {
      if (pass.failed > 0) throw new Error(`${pass.failed} lookups failed`)
      resolved += pass.resolved
    }
    const seconds = (performance.now() - started) / 1000
    clock = new Date()
    const answers = (
      await Promise.all(
        Array.from({ length: ADDRESSES / NAMES_PER_REQUEST_MAX }, (_, i) =>
          profiles.lookup(addresses.slice(i * NAMES_PER_REQUEST_MAX, (i + 1) * NAMES_PER_REQUEST_MAX)),
        ),
      )
    ).flat()
    const named = answers.filter((answer) => answer.name !== null).length
    if (resolved !== ADDRESSES || named !== ADDRESSES / NAMED_EVERY)
      throw new Error(
        `resolved ${resolved}, named ${named}: expected ${ADDRESSES}, ${ADDRESSES / NAMED_EVERY}`,
      )
    const ethCalls = proxy.calls.filter((call) => call.method === 'eth_call').length
    // A lookup is one ENS resolution: every address's reverse name, and each name's avatar record.
    const lookups = ADDRESSES + named
    return {
      addresses: ADDRESSES,
      named,
      seconds: round1(seconds),
      addressesPerSecond: round1(ADDRESSES / seconds),
      lookups,
      lookupsPerSecond: round1(lookups / seconds),
      ethCalls,
      rpcRequests: proxy.calls.length,
      lookupsPerEthCall: round1(lookups / ethCalls),
    }
  } finally {
    await proxy.close()
    await database.close()
    await nameService.stop()
  }
}

/** Every NAMED_EVERY-th address gets `n<i>.eth`: address record, avatar record, and its reverse record. */
async function registerNames(
  rpcUrl: string,
  deployment: { registry: Address; publicResolver: Address; reverseRegistrar: Address },
  addresses: Address[],
) {
  const options = { chain: mainnet, transport: http(rpcUrl) }
  const wallet = createWalletClient(options)
  const publicClient = createPublicClient(options)
  const test = createTestClient({ ...options, mode: 'anvil' })
  const deployer = anvilAccounts[0]?.address as Address
  await test.request({ method: 'anvil_autoImpersonateAccount', params: [true] } as never)
  const sent: Hash[] = []
  for (const [i, address] of addresses.entries()) {
    if (i % NAMED_EVERY !== 0) continue
    const name = `n${i}.eth`
    const node = namehash(name)
    await test.setBalance({ address, value: parseEther('1') })
    sent.push(
      await wallet.writeContract({
        account: deployer,
        address: deployment.registry,
        abi: registryAbi,
        functionName: 'setSubnodeRecord',
        args: [namehash('eth'), labelhash(`n${i}`), deployer, deployment.publicResolver, 0n],
      }),
      await wallet.writeContract({
        account: deployer,
        address: deployment.publicResolver,
        abi: resolverAbi,
        functionName: 'setAddr',
        args: [node, address],
      }),
      await wallet.writeContract({
        account: deployer,
        address: deployment.publicResolver,
        abi: resolverAbi,
        functionName: 'setText',
        args: [node, 'avatar', `ipfs://${CID}`],
      }),
      await wallet.writeContract({
        account: address,
        address: deployment.reverseRegistrar,
        abi: reverseAbi,
        functionName: 'setName',
        args: [name],
      }),
    )
  }
  for (const hash of sent.slice(-8)) {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 })
    if (receipt.status !== 'success') throw new Error(`registering names: ${hash} reverted`)
  }
}

function formatNamesReport(r: NamesBenchResult): string {
  return [
    '## Names',
    `Cold refresh of ${r.addresses} addresses (${r.named} with a name and avatar record), local name service:`,
    `  ${r.seconds} s, ${r.addressesPerSecond} addresses/s, ${r.lookupsPerSecond} lookups/s`,
    `  ${r.lookups} lookups in ${r.ethCalls} eth_calls: ${r.lookupsPerEthCall} lookups per RPC call`,
  ].join('\n')
}

/** The `names` section: a cold refresh of 1,000 addresses on the local name service, lookups per second and per RPC call. */
export async function namesSection(ctx: BenchContext): Promise<SectionResult> {
  const result = await runNamesBench({ log: ctx.step })
  return { json: { names: result }, report: formatNamesReport(result), misses: 0 }
}
