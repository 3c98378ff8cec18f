import { isAddress } from 'viem'
import { POPULAR_WALLET_IDS, WALLET_CONNECT_WALLET_IDS } from './constants.ts'
import { DISCUSSION_LIMITS, REACTIONS } from './discussion/limits.ts'
import { GOVERNANCE_LIMITS } from './governance/rules.ts'
import { chainIdSchema, tokenAmountSchema } from './primitives.ts'
import { z } from './zod.ts'

/** RainbowKit's own wording for a WalletConnect wallet without a project id. */
export const MISSING_PROJECT_ID_MESSAGE =
  'No projectId found. Every dApp must now provide a WalletConnect Cloud projectId to enable WalletConnect v2 https://www.rainbowkit.com/docs/installation#configure'

/** Accent colours must be hex of 3 or 6 digits (RainbowKit's theme accepts nothing else). */
export const hexColorSchema = z
  .string()
  .check(z.regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour of 3 or 6 digits, like #0e76fd'))

const addressSchema = z.pipe(
  z
    .string()
    .check(z.refine((value) => isAddress(value, { strict: false }), 'must be a 0x-prefixed 20-byte address')),
  z.transform((value: string) => value as `0x${string}`),
)

export const publicChainSchema = z.strictObject({
  id: chainIdSchema,
  name: z.string().check(z.minLength(1), z.maxLength(64)),
  /** The URL the browser sends JSON-RPC to: over HTTP, or a WebSocket for ws:// and wss:// (ADR 027). */
  rpcUrl: z.url({ protocol: /^(https?|wss?)$/ }),
  nativeCurrency: z._default(
    z.strictObject({
      name: z.string().check(z.minLength(1), z.maxLength(32)),
      symbol: z.string().check(z.minLength(1), z.maxLength(12)),
      decimals: z.int().check(z.gte(0), z.lte(36)),
    }),
    { name: 'Ether', symbol: 'ETH', decimals: 18 },
  ),
  blockExplorerUrl: z._default(z.nullable(z.url()), null),
  /** Multicall3 on this chain, so reads are batched into one eth_call; null = one call per read. */
  multicall3: z._default(z.nullable(addressSchema), null),
  testnet: z._default(z.boolean(), false),
})
export type PublicChain = z.infer<typeof publicChainSchema>

/** Rules frozen into each proposal at creation, so a later config change cannot alter a result. */
export const governanceRulesSchema = z.strictObject({
  /** Voting power that must take part for a result to count. */
  quorum: tokenAmountSchema,
  /** Voting power an author needs at the snapshot block to create a proposal. */
  threshold: tokenAmountSchema,
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

/** The categories a proposal may name unless PROPOSAL_CATEGORIES says otherwise (ADR 048). */
export const DEFAULT_PROPOSAL_CATEGORIES = ['Grants', 'Operations', 'Security'] as const

/** Who may post in threads (DISCUSSION_POSTERS): members with voting power or tokens, or anyone signed in. */
export const DISCUSSION_POSTERS = ['members', 'signed-in'] as const
export type DiscussionPosters = (typeof DISCUSSION_POSTERS)[number]

/** The discussion's settings the forms state (ADR 053): categories, who may post, limits, reactions, moderators. */
const discussionConfigSchema = z.strictObject({
  categories: z.array(z.string().check(z.minLength(1), z.maxLength(GOVERNANCE_LIMITS.categoryMax))),
  posters: z.enum(DISCUSSION_POSTERS),
  limits: z.strictObject({
    bodyMaxChars: z.int(),
    titleMaxChars: z.int(),
    reasonMaxChars: z.int(),
    depthMax: z.int(),
    mentionsMax: z.int(),
    keyLifetimeMaxSeconds: z.int(),
  }),
  reactions: z.array(z.enum(REACTIONS)),
  moderators: z.array(addressSchema),
})
const DEFAULT_DISCUSSION_CONFIG = {
  categories: ['Ideas', 'Questions', 'General'],
  posters: 'members' as const,
  limits: { ...DISCUSSION_LIMITS },
  reactions: [...REACTIONS],
  moderators: [],
}

/** Everything the web app needs at run time, injected by the server into index.html. */
export const publicConfigSchema = z
  .strictObject({
    dao: z.strictObject({
      name: z.string().check(z.minLength(1), z.maxLength(64)),
      description: z._default(z.string().check(z.maxLength(500)), ''),
    }),
    appUrl: z.url(),
    /** The DAO's chain first; more chains make the chain selector appear. */
    chains: z.array(publicChainSchema).check(z.minLength(1, 'No chains found on connector.')),
    token: z._default(z.nullable(z.strictObject({ address: addressSchema, chainId: chainIdSchema })), null),
    governance: z._default(
      z.extend(governanceRulesSchema, {
        /**
         * Whether proposals may be quadratic (QUADRATIC_VOTING); not frozen into proposals: the form offers
         * Quadratic only when it is on, with the warning that it is not sybil-resistant.
         */
        quadraticVoting: z._default(z.boolean(), false),
      }),
      { ...DEFAULT_GOVERNANCE_RULES, quadraticVoting: false },
    ),
    /** What a proposal's category may be besides none (''): spending is reported per category. */
    proposalCategories: z._default(
      z.array(z.string().check(z.minLength(1), z.maxLength(GOVERNANCE_LIMITS.categoryMax))),
      [...DEFAULT_PROPOSAL_CATEGORIES],
    ),
    wallets: z._default(
      z.array(z.enum(POPULAR_WALLET_IDS)).check(
        z.minLength(1),
        z.refine((ids) => new Set(ids).size === ids.length, 'lists a wallet twice'),
      ),
      [...POPULAR_WALLET_IDS],
    ),
    walletConnectProjectId: z._default(z.nullable(z.string().check(z.minLength(1))), null),
    learnMoreUrl: z._default(
      z.url(),
      'https://learn.rainbow.me/understanding-web3?utm_source=rainbowkit&utm_campaign=learnmore',
    ),
    disclaimer: z._default(z.nullable(z.string().check(z.maxLength(500))), null),
    /** RainbowKit's blue (#0e76fd) darkened to 5.4:1 against white text and the white modal (WCAG AA). */
    accentColor: z._default(hexColorSchema, '#0a66d9'),
    /** Threads and topics (ADR 053). */
    discussion: z._default(discussionConfigSchema, DEFAULT_DISCUSSION_CONFIG),
    /** Sign-In with Ethereum after connecting; false (`SIGN_IN=off`) is connect-only (ADR 007). */
    signIn: z._default(z.boolean(), true),
    /** anvil's unlocked accounts, offered as a development wallet; only against the local demo chain. */
    devWallet: z._default(
      z.nullable(
        z.strictObject({
          accounts: z
            .array(
              z.strictObject({
                address: addressSchema,
                label: z.nullable(z.string().check(z.maxLength(32))),
              }),
            )
            .check(z.minLength(1)),
        }),
      ),
      null,
    ),
  })
  .check(
    z.superRefine((config, ctx) => {
      const needsProjectId = config.wallets.some((id) => WALLET_CONNECT_WALLET_IDS.includes(id))
      if (needsProjectId && !config.walletConnectProjectId) {
        ctx.addIssue({
          code: 'custom',
          path: ['walletConnectProjectId'],
          message: MISSING_PROJECT_ID_MESSAGE,
        })
      }
    }),
  )
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

/** A readable one-line-per-problem summary of a zod error (core's, or the API's own classic schemas'). */
export function formatIssues(error: z.core.$ZodError): string {
  return error.issues.map((issue) => `- ${issue.path.join('.') || '(root)'}: ${issue.message}`).join('\n')
}
