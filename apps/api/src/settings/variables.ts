// Every environment variable the server reads, with its check and default. zod lists the problems of an
// invalid environment in the order of this object's keys, the order kept from before these variables were
// grouped with their jobs (the name service's, the limits' and the treasury's are in name-service.ts, limits.ts
// and treasury.ts, the webhooks' in webhooks.ts, the voting kinds' in voting.ts,
// the signature threads' in signatures.ts).
import {
  DEFAULT_GOVERNANCE_RULES,
  DEFAULT_PROPOSAL_CATEGORIES,
  GOVERNANCE_LIMITS,
  hexColorSchema,
  POPULAR_WALLET_IDS,
  tokenAmountSchema,
} from '@guildhall/core'
import { isAddress } from 'viem'
import { mainnet, sepolia } from 'viem/chains'
import { z } from 'zod'
import { csv } from './csv.ts'
import { discussionVariables } from './discussion.ts'
import { executionVariables } from './execution.ts'
import { limitVariables } from './limits.ts'
import { liveVariables } from './live.ts'
import { moderationVariables } from './moderation.ts'
import { nameServiceVariables } from './name-service.ts'
import { signatureVariables } from './signatures.ts'
import { treasuryVariables } from './treasury.ts'
import { votingVariables } from './voting.ts'
import { webhookVariables } from './webhooks.ts'

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_ORIGIN: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  DAO_NAME: z.string().min(1).max(64).default('Guildhall DAO'),
  DAO_DESCRIPTION: z.string().max(500).default(''),
  CHAIN_IDS: z
    .string()
    .default(`${mainnet.id},${sepolia.id}`)
    .transform(csv)
    .pipe(
      z
        .array(
          z
            .string()
            .regex(/^[1-9][0-9]*$/, 'must be a positive chain id')
            .transform(Number),
        )
        .min(1, 'No chains found on connector.'),
    ),
  TOKEN_ADDRESS: z
    .string()
    .refine((v) => isAddress(v, { strict: false }), 'must be a 0x-prefixed 20-byte address')
    .optional(),
  TOKEN_DEPLOY_BLOCK: z.coerce.number().int().min(0).default(0),
  /**
   * Governance rules in token base units (e.g. wei); frozen into each proposal when it is created. Core's
   * schemas are zod/mini, without methods: wrapped with functions, which classic zod has too.
   */
  QUORUM: z._default(tokenAmountSchema, DEFAULT_GOVERNANCE_RULES.quorum),
  PROPOSAL_THRESHOLD: z._default(tokenAmountSchema, DEFAULT_GOVERNANCE_RULES.threshold),
  ABSTAIN_COUNTS_TO_QUORUM: z.enum(['on', 'off']).default('on'),
  ...votingVariables.shape,
  /** The categories a proposal may name, `Grants,Operations,Security` by default; empty: none. */
  PROPOSAL_CATEGORIES: z
    .string()
    .default(DEFAULT_PROPOSAL_CATEGORIES.join(','))
    .transform(csv)
    .pipe(
      z
        .array(
          z
            .string()
            .max(
              GOVERNANCE_LIMITS.categoryMax,
              `must be at most ${GOVERNANCE_LIMITS.categoryMax} characters`,
            ),
        )
        .refine((names) => new Set(names).size === names.length, 'lists a category twice'),
    ),
  /** Blocks below the head the token index treats as final; default 0 on the local chain, else 12. */
  TOKEN_INDEX_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).optional(),
  WALLETS: z
    .string()
    .default(POPULAR_WALLET_IDS.join(','))
    .transform(csv)
    .pipe(z.array(z.enum(POPULAR_WALLET_IDS)).min(1)),
  WALLETCONNECT_PROJECT_ID: z.string().min(1).optional(),
  LEARN_MORE_URL: z.url().optional(),
  DISCLAIMER: z.string().max(500).optional(),
  ACCENT_COLOR: z.optional(hexColorSchema),
  ...nameServiceVariables.shape,
  /** anvil accounts offered as the development wallet, `address[:label],…` (set by the local demo only). */
  DEV_WALLET_ACCOUNTS: z.string().optional(),
  /** Sign-In with Ethereum after connecting; `off` is connect-only mode. */
  SIGN_IN: z.enum(['on', 'off']).default('on'),
  /** PostgreSQL; when unset the embedded PGlite database lives in DATA_DIR (in memory without one). */
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).optional(),
  ...limitVariables.shape,
  ...liveVariables.shape,
  ...executionVariables.shape,
  ...discussionVariables.shape,
  ...treasuryVariables.shape,
  ...moderationVariables.shape,
  ...webhookVariables.shape,
  ...signatureVariables.shape,
})

/** The environment once every variable is valid. */
export type Env = z.output<typeof envSchema>
