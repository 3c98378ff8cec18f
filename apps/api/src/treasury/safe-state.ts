// GET /api/treasury: the Safe as it stands, read live at one block (shared by the requests at that block): owners, threshold, nonce, version,
// modules, guard (its storage slot), and the balances of the Safe and the plain addresses, in one
// multicall; values from the operator's on-chain price feeds; and the warnings the page shows.
import type { TreasuryAsset, TreasurySummary } from '@guildhall/core'
import { and, inArray, sql } from 'drizzle-orm'
import {
  type Address,
  erc20Abi,
  formatUnits,
  getAddress,
  keccak256,
  type PublicClient,
  parseAbi,
  toHex,
} from 'viem'
import type { Db } from '../platform/db/client.ts'
import { memberStats } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import { sharedPerBlock } from '../platform/shared-per-block.ts'
import type { TreasurySettings } from '../settings/treasury.ts'

const safeReadAbi = parseAbi([
  'function getOwners() view returns (address[])',
  'function getThreshold() view returns (uint256)',
  'function nonce() view returns (uint256)',
  'function VERSION() view returns (string)',
  'function getModulesPaginated(address start, uint256 pageSize) view returns (address[] array, address next)',
])
const aggregatorAbi = parseAbi([
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
])
/** GuardManager's storage slot: keccak256("guard_manager.guard.address"). */
const GUARD_SLOT = keccak256(toHex('guard_manager.guard.address'))
/** The modules' linked list starts (and ends) here. */
const SENTINEL: Address = '0x0000000000000000000000000000000000000001'
/** Modules read at once; more than this many enabled is itself alarming, and the page lists these. */
const MODULES_PAGE = 50

export type SafeStateOptions = {
  db: Db | undefined
  client: PublicClient
  treasury: TreasurySettings
  multicall3: Address | null
  nativeCurrency: { symbol: string; decimals: number }
  /** The Safe's name (the name service's answer); null without one. */
  nameOf?: (address: Address) => Promise<string | null>
}

/** The Safe could not be read: the RPC failed, or the address is not a Safe. */
const safeUnavailable = () =>
  new ApiError(
    503,
    'safe_unavailable',
    'Could not load Safe information: the chain did not answer, or the treasury address is not a Safe. Try again shortly.',
    5,
  )

/** A value in the feed's currency, to the cent: balance × price, both in their own decimals. */
function feedValue(balance: bigint, decimals: number, answer: bigint, feedDecimals: number): string {
  const cents = (balance * answer * 100n) / 10n ** BigInt(decimals + feedDecimals)
  return formatUnits(cents, 2)
}

/**
 * The summary as of the chain's head. Requests at the same block share one read of the Safe
 * (`sharedPerBlock`): a crowd on the Treasury page costs the node one block number per view.
 */
export function safeStateReader(options: SafeStateOptions): () => Promise<TreasurySummary> {
  const atBlock = sharedPerBlock((blockNumber) => readSafeState(options, blockNumber))
  return async () => {
    let head: bigint
    try {
      head = await options.client.getBlockNumber({ cacheTime: 0 })
    } catch {
      throw safeUnavailable()
    }
    return atBlock(head)
  }
}

async function readSafeState(options: SafeStateOptions, blockNumber: bigint): Promise<TreasurySummary> {
  const { client, treasury, multicall3 } = options
  const safe = treasury.safe
  const holders = [safe, ...treasury.addresses]
  const via = multicall3 ? { multicallAddress: multicall3 } : { deployless: true as const }
  let owners: readonly Address[]
  let threshold: bigint
  let nonce: bigint
  let version: string
  let modules: readonly Address[]
  let guardSlot: `0x${string}` | undefined
  let native: bigint[]
  try {
    const safeContract = { address: safe, abi: safeReadAbi } as const
    const [ownersRead, thresholdRead, nonceRead, versionRead, modulesRead] = await client.multicall({
      contracts: [
        { ...safeContract, functionName: 'getOwners' },
        { ...safeContract, functionName: 'getThreshold' },
        { ...safeContract, functionName: 'nonce' },
        { ...safeContract, functionName: 'VERSION' },
        { ...safeContract, functionName: 'getModulesPaginated', args: [SENTINEL, BigInt(MODULES_PAGE)] },
      ],
      allowFailure: false,
      blockNumber,
      ...via,
    })
    ;[owners, threshold, nonce, version, modules] = [
      ownersRead,
      thresholdRead,
      nonceRead,
      versionRead,
      modulesRead[0],
    ]
    ;[guardSlot, ...native] = await Promise.all([
      client.getStorageAt({ address: safe, slot: GUARD_SLOT, blockNumber }),
      ...holders.map((address) => client.getBalance({ address, blockNumber })),
    ])
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw safeUnavailable()
  }
  const guardAddress = guardSlot && BigInt(guardSlot) !== 0n ? getAddress(`0x${guardSlot.slice(-40)}`) : null

  const assets = await readAssets(options, holders, blockNumber, native)
  const ownerList = owners.map((owner) => getAddress(owner))
  const members = await listedMembers(options.db, ownerList)
  const warnings: TreasurySummary['warnings'] = [
    ...modules.map((module) => ({
      kind: 'module' as const,
      address: getAddress(module),
      message: `Module ${getAddress(module)} is enabled: it can move the treasury's funds without the signers.`,
    })),
    ...(guardAddress
      ? [
          {
            kind: 'guard' as const,
            address: guardAddress,
            message: `Guard ${guardAddress} is set: it can block the Safe's transactions.`,
          },
        ]
      : []),
    ...ownerList
      .filter((owner) => members !== null && !members.has(owner))
      .map((owner) => ({
        kind: 'owner-not-member' as const,
        address: owner,
        message: `Signer ${owner} is not a member of the DAO.`,
      })),
    ...(threshold === 1n
      ? [
          {
            kind: 'threshold-one' as const,
            address: null,
            message: "One signer alone can move the treasury's funds.",
          },
        ]
      : []),
  ]
  return {
    configured: true,
    safe: {
      address: safe,
      name: (await options.nameOf?.(safe)) ?? null,
      version,
      owners: ownerList,
      threshold: Number(threshold),
      nonce: Number(nonce),
      modules: modules.map((module) => getAddress(module)),
      guard: guardAddress,
    },
    addresses: treasury.addresses,
    blockNumber: Number(blockNumber),
    warnings,
    assets,
  }
}

/** The owners the members directory lists; null without a database (no directory: no warning either). */
async function listedMembers(db: Db | undefined, owners: Address[]): Promise<Set<string> | null> {
  if (!db || owners.length === 0) return db ? new Set() : null
  const rows = await db
    .select({ address: memberStats.address })
    .from(memberStats)
    .where(and(inArray(memberStats.address, owners), sql`${memberStats.listed}`))
  return new Set(rows.map((row) => row.address))
}

/** Native coin and each followed token, summed over the Safe and the plain addresses, valued where a feed says. */
async function readAssets(
  { client, treasury, multicall3, nativeCurrency }: SafeStateOptions,
  holders: Address[],
  blockNumber: bigint,
  native: bigint[],
): Promise<TreasuryAsset[]> {
  const via = multicall3 ? { multicallAddress: multicall3 } : { deployless: true as const }
  const tokenCalls = treasury.tokens.flatMap((token) => [
    { address: token, abi: erc20Abi, functionName: 'symbol' } as const,
    { address: token, abi: erc20Abi, functionName: 'decimals' } as const,
    ...holders.map(
      (holder) => ({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [holder] }) as const,
    ),
  ])
  const feedCalls = treasury.priceFeeds.flatMap(({ feed }) => [
    { address: feed, abi: aggregatorAbi, functionName: 'latestRoundData' } as const,
    { address: feed, abi: aggregatorAbi, functionName: 'decimals' } as const,
    { address: feed, abi: aggregatorAbi, functionName: 'description' } as const,
  ])
  let results: { status: 'success' | 'failure'; result?: unknown }[] = []
  try {
    results =
      tokenCalls.length + feedCalls.length === 0
        ? []
        : await client.multicall({ contracts: [...tokenCalls, ...feedCalls], blockNumber, ...via })
  } catch {
    throw safeUnavailable()
  }
  const ok = (i: number) => (results[i]?.status === 'success' ? results[i]?.result : undefined)
  const feeds = new Map<string, { answer: bigint; decimals: number; currency: string }>()
  treasury.priceFeeds.forEach(({ token }, f) => {
    const at = tokenCalls.length + f * 3
    const round = ok(at) as readonly [bigint, bigint, bigint, bigint, bigint] | undefined
    const decimals = ok(at + 1) as number | undefined
    const description = ok(at + 2) as string | undefined
    if (!round || decimals === undefined || round[1] <= 0n) return
    feeds.set(token ?? '', {
      answer: round[1],
      decimals,
      currency: description?.split('/')[1]?.trim() || 'USD',
    })
  })
  const valued = (token: Address | null, balance: bigint, decimals: number) => {
    const feed = feeds.get(token ?? '')
    return feed
      ? { amount: feedValue(balance, decimals, feed.answer, feed.decimals), currency: feed.currency }
      : null
  }
  const nativeBalance = native.reduce((sum, balance) => sum + balance, 0n)
  const assets: TreasuryAsset[] = [
    {
      token: null,
      symbol: nativeCurrency.symbol,
      decimals: nativeCurrency.decimals,
      balance: String(nativeBalance),
      value: valued(null, nativeBalance, nativeCurrency.decimals),
    },
  ]
  const perToken = 2 + holders.length
  treasury.tokens.forEach((token, t) => {
    const at = t * perToken
    const symbol = ok(at) as string | undefined
    const decimals = ok(at + 1) as number | undefined
    const balances = holders.map((_, h) => ok(at + 2 + h) as bigint | undefined)
    // Not an ERC-20 at this block (a wrong address in TREASURY_TOKENS): left out rather than shown wrong.
    if (symbol === undefined || decimals === undefined || balances.some((b) => b === undefined)) return
    const balance = balances.reduce<bigint>((sum, b) => sum + (b ?? 0n), 0n)
    assets.push({
      token,
      symbol,
      decimals,
      balance: String(balance),
      value: valued(token, balance, decimals),
    })
  })
  return assets
}
