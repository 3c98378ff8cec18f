// The variables of the treasury (ADR 049): the DAO's Safe, plain addresses shown beside it, the tokens the
// index follows (the governance token always), the block it starts at, and optional on-chain price feeds.
import { type Address, getAddress, isAddress } from 'viem'
import { z } from 'zod'
import { csv } from './csv.ts'

const ADDRESS_MESSAGE = 'must be a 0x-prefixed 20-byte address'
const address = z
  .string()
  .trim()
  .refine((v) => isAddress(v, { strict: false }), ADDRESS_MESSAGE)
  .transform((v) => getAddress(v))
const addressList = z.string().default('').transform(csv).pipe(z.array(address))

/** `native` names the chain's own coin where a variable lists tokens (PRICE_FEEDS). */
const NATIVE = 'native'
const PRICE_FEED_MESSAGE =
  'must be token=feed pairs (token: an address or native; feed: an address), comma-separated'
const priceFeed = z.string().transform((pair, context) => {
  const [token = '', feed = '', ...rest] = pair.split('=').map((part) => part.trim())
  const tokenOk = token === NATIVE || isAddress(token, { strict: false })
  if (rest.length > 0 || !tokenOk || !isAddress(feed, { strict: false })) {
    context.addIssue({ code: 'custom', message: PRICE_FEED_MESSAGE })
    return z.NEVER
  }
  return { token: token === NATIVE ? null : getAddress(token), feed: getAddress(feed) }
})

export const treasuryVariables = z.object({
  /** The DAO's treasury Safe on its chain; unset or empty: no treasury (the page says so). */
  TREASURY_SAFE: z.preprocess((v) => (v === '' ? undefined : v), address.optional()),
  /** Plain addresses whose balances are shown with the Safe's assets. */
  TREASURY_ADDRESSES: addressList,
  /** ERC-20 tokens the treasury index follows, besides the governance token (always followed). */
  TREASURY_TOKENS: addressList,
  /** The block the treasury index starts at: the Safe's creation block, or before it. */
  TREASURY_START_BLOCK: z.coerce.number().int().min(0).default(0),
  /** Chainlink AggregatorV3 feeds valuing tokens, `token=feed,…` (`native=feed` for the native coin). */
  PRICE_FEEDS: z.string().default('').transform(csv).pipe(z.array(priceFeed)),
})

export interface TreasurySettings {
  safe: Address
  addresses: Address[]
  /** The governance token first, then TREASURY_TOKENS, each once. */
  tokens: Address[]
  startBlock: number
  /** token null: the native coin. */
  priceFeeds: { token: Address | null; feed: Address }[]
}

type TreasuryVariables = z.output<typeof treasuryVariables> & { TOKEN_ADDRESS?: string | undefined }

/** The treasury of a valid environment; null without TREASURY_SAFE. */
export function treasurySettings(e: TreasuryVariables): TreasurySettings | null {
  if (!e.TREASURY_SAFE) return null
  const tokens = [
    ...new Set([...(e.TOKEN_ADDRESS ? [getAddress(e.TOKEN_ADDRESS)] : []), ...e.TREASURY_TOKENS]),
  ]
  return {
    safe: e.TREASURY_SAFE,
    addresses: [...new Set(e.TREASURY_ADDRESSES)],
    tokens,
    startBlock: e.TREASURY_START_BLOCK,
    priceFeeds: e.PRICE_FEEDS,
  }
}

/**
 * Problems between the treasury's variables, when each is valid: a setting without the Safe it belongs
 * to, a price feed for a token the treasury does not follow, two feeds for one token.
 */
export function treasuryProblems(env: Record<string, string | undefined>): string[] {
  const parsed = treasuryVariables.safeParse(env)
  if (!parsed.success) return []
  const e = parsed.data
  if (!e.TREASURY_SAFE) {
    return (['TREASURY_ADDRESSES', 'TREASURY_TOKENS', 'TREASURY_START_BLOCK', 'PRICE_FEEDS'] as const)
      .filter((name) => (env[name] ?? '').trim() !== '')
      .map((name) => `- ${name}: needs TREASURY_SAFE`)
  }
  const tokenAddress =
    env.TOKEN_ADDRESS && isAddress(env.TOKEN_ADDRESS, { strict: false }) ? env.TOKEN_ADDRESS : undefined
  const followed = new Set(treasurySettings({ ...e, TOKEN_ADDRESS: tokenAddress })?.tokens)
  const seen = new Set<string>()
  const problems: string[] = []
  for (const { token } of e.PRICE_FEEDS) {
    const name = token ?? NATIVE
    if (token && !followed.has(token))
      problems.push(`- PRICE_FEEDS: ${token} is not a treasury token (TOKEN_ADDRESS or TREASURY_TOKENS)`)
    if (seen.has(name)) problems.push(`- PRICE_FEEDS: ${name} has more than one feed`)
    seen.add(name)
  }
  return problems
}
