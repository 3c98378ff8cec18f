import { isAddress } from 'viem'
import { z } from 'zod'
import { POPULAR_WALLET_IDS, WALLET_CONNECT_WALLET_IDS } from './constants.ts'

/** RainbowKit's own wording (spec §5) for a WalletConnect wallet without a project id. */
export const MISSING_PROJECT_ID_MESSAGE =
  'No projectId found. Every dApp must now provide a WalletConnect Cloud projectId to enable WalletConnect v2 https://www.rainbowkit.com/docs/installation#configure'

/** Accent colours must be hex of 3 or 6 digits (spec §5). */
export const hexColorSchema = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour of 3 or 6 digits, like #0e76fd')

export const addressSchema = z
  .string()
  .refine((value) => isAddress(value, { strict: false }), 'must be a 0x-prefixed 20-byte address')
  .transform((value) => value as `0x${string}`)

export const publicChainSchema = z.strictObject({
  id: z.number().int().positive(),
  name: z.string().min(1).max(64),
  /** The URL the browser sends JSON-RPC to. */
  rpcUrl: z.url(),
  nativeCurrency: z
    .strictObject({
      name: z.string().min(1).max(32),
      symbol: z.string().min(1).max(12),
      decimals: z.number().int().min(0).max(36),
    })
    .default({ name: 'Ether', symbol: 'ETH', decimals: 18 }),
  blockExplorerUrl: z.url().nullable().default(null),
  /** Multicall3 on this chain, so reads are batched into one eth_call; null = one call per read. */
  multicall3: addressSchema.nullable().default(null),
  testnet: z.boolean().default(false),
})
export type PublicChain = z.infer<typeof publicChainSchema>

/** An amount of the governance token in its base units (wei for 18 decimals), as a decimal string. */
export const tokenUnitsSchema = z
  .string()
  .regex(/^(0|[1-9]\d{0,76})$/, 'must be a whole number of token base units, like 1000000000000000000000')

/** Rules frozen into each proposal at creation (product.md §3). */
export const governanceRulesSchema = z.strictObject({
  /** Voting power that must take part for a result to count. */
  quorum: tokenUnitsSchema,
  /** Voting power an author needs at the snapshot block to create a proposal. */
  threshold: tokenUnitsSchema,
  /** Whether Abstain votes count toward the quorum (basic proposals). */
  abstainCountsToQuorum: z.boolean(),
})
export type GovernanceRules = z.infer<typeof governanceRulesSchema>
/** 1000 and 1 tokens of 18 decimals. */
export const DEFAULT_GOVERNANCE_RULES: GovernanceRules = {
  quorum: '1000000000000000000000',
  threshold: '1000000000000000000',
  abstainCountsToQuorum: true,
}

/** Everything the web app needs at run time, injected by the server into index.html. */
export const publicConfigSchema = z
  .strictObject({
    dao: z.strictObject({
      name: z.string().min(1).max(64),
      description: z.string().max(500).default(''),
    }),
    appUrl: z.url(),
    /** The DAO's chain first; more chains make the chain selector appear. */
    chains: z.array(publicChainSchema).min(1, 'No chains found on connector.'),
    token: z
      .strictObject({ address: addressSchema, chainId: z.number().int().positive() })
      .nullable()
      .default(null),
    governance: governanceRulesSchema.default(DEFAULT_GOVERNANCE_RULES),
    wallets: z
      .array(z.enum(POPULAR_WALLET_IDS))
      .min(1)
      .refine((ids) => new Set(ids).size === ids.length, 'lists a wallet twice')
      .default([...POPULAR_WALLET_IDS]),
    walletConnectProjectId: z.string().min(1).nullable().default(null),
    learnMoreUrl: z
      .url()
      .default('https://learn.rainbow.me/understanding-web3?utm_source=rainbowkit&utm_campaign=learnmore'),
    disclaimer: z.string().max(500).nullable().default(null),
    /** RainbowKit's blue (#0e76fd) darkened to 5.4:1 against white text and the white modal (WCAG AA). */
    accentColor: hexColorSchema.default('#0a66d9'),
    /** Sign-In with Ethereum after connecting; false (`SIGN_IN=off`) is connect-only (ADR 007). */
    signIn: z.boolean().default(true),
    /** anvil's unlocked accounts, offered as a development wallet; only against the local demo chain. */
    devWallet: z
      .strictObject({
        accounts: z
          .array(z.strictObject({ address: addressSchema, label: z.string().max(32).nullable() }))
          .min(1),
      })
      .nullable()
      .default(null),
  })
  .superRefine((config, ctx) => {
    const needsProjectId = config.wallets.some((id) => WALLET_CONNECT_WALLET_IDS.includes(id))
    if (needsProjectId && !config.walletConnectProjectId) {
      ctx.addIssue({ code: 'custom', path: ['walletConnectProjectId'], message: MISSING_PROJECT_ID_MESSAGE })
    }
  })
export type PublicConfig = z.infer<typeof publicConfigSchema>
export type PublicConfigInput = z.input<typeof publicConfigSchema>

/** The element id of the JSON config the server writes into index.html. */
export const PUBLIC_CONFIG_ELEMENT_ID = 'guildhall-config'
/** The placeholder in index.html that the server replaces with the config script. */
export const PUBLIC_CONFIG_PLACEHOLDER = '<!--guildhall-config-->'
/**
 * The placeholder inside index.html's #root that the server replaces with the static app shell (header,
 * and the Overview's heading), which React replaces on its first render. Left as it is (Vite's dev
 * server), the page simply starts empty.
 */
export const APP_SHELL_PLACEHOLDER = '<!--guildhall-shell-->'

/** A readable one-line-per-problem summary of a zod error. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `- ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n')
}
