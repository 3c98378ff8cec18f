// The configuration the web app learns from the server (written into index.html, ADR 004), so one build
// serves any DAO: the DAO, its chains and token, the governance rules, the connect dialog's wallets and
// texts, sign-in, and the development wallet where it may be offered.
import {
  DISCUSSION_LIMITS,
  formatIssues,
  LOCAL_CHAIN_ID,
  MISSING_PROJECT_ID_MESSAGE,
  type PublicConfig,
  publicConfigSchema,
  REACTIONS,
  WALLET_CONNECT_WALLET_IDS,
} from '@guildhall/core'
import type { ChainSettings } from './chains.ts'
import { csv } from './csv.ts'
import { type Env, envSchema } from './variables.ts'

/** The public config of a valid environment, or the problems with its development wallet's addresses. */
export function publicConfigOf(
  e: Env,
  chains: ChainSettings[],
  origin: string,
): { config: PublicConfig } | { problems: string } {
  const daoChain = chains[0] as ChainSettings
  const devWalletAccounts = csv(e.DEV_WALLET_ACCOUNTS ?? '').map((entry) => {
    const [address = '', label] = entry.split(':')
    return { address, label: label?.trim() || null }
  })
  // The development wallet holds anvil's public keys: never offer it against a real network.
  const devWallet = devWalletAccounts.length > 0 && daoChain.id === LOCAL_CHAIN_ID && daoChain.proxied
  const publicConfig = publicConfigSchema.safeParse({
    dao: { name: e.DAO_NAME, description: e.DAO_DESCRIPTION },
    appUrl: origin,
    chains: chains.map(({ upstreamRpcUrl: _u, proxied: _p, ...chain }) => chain),
    token: e.TOKEN_ADDRESS ? { address: e.TOKEN_ADDRESS, chainId: daoChain.id } : null,
    governance: {
      quorum: e.QUORUM,
      threshold: e.PROPOSAL_THRESHOLD,
      abstainCountsToQuorum: e.ABSTAIN_COUNTS_TO_QUORUM === 'on',
      quadraticVoting: e.QUADRATIC_VOTING === 'on',
    },
    proposalCategories: e.PROPOSAL_CATEGORIES,
    wallets: e.WALLETS,
    walletConnectProjectId: e.WALLETCONNECT_PROJECT_ID ?? null,
    learnMoreUrl: e.LEARN_MORE_URL,
    disclaimer: e.DISCLAIMER ?? null,
    accentColor: e.ACCENT_COLOR,
    discussion: {
      categories: e.DISCUSSION_CATEGORIES,
      posters: e.DISCUSSION_POSTERS,
      limits: { ...DISCUSSION_LIMITS },
      reactions: [...REACTIONS],
      moderators: e.MODERATORS,
    },
    signIn: e.SIGN_IN === 'on',
    devWallet: devWallet ? { accounts: devWalletAccounts } : null,
  })
  if (publicConfig.success) return { config: publicConfig.data }
  // Everything else was checked before; what is left are the development wallet's addresses.
  return {
    problems: formatIssues(publicConfig.error).replace(
      /devWallet\.accounts\.(\d+)\.address/g,
      'DEV_WALLET_ACCOUNTS (entry $1)',
    ),
  }
}

/** WalletConnect-based wallets without WALLETCONNECT_PROJECT_ID: the spec's words, before anyone connects. */
export function walletConnectProblems(env: Record<string, string | undefined>): string[] {
  const wallets = envSchema.shape.WALLETS.safeParse(env.WALLETS).data ?? []
  return wallets.some((id) => WALLET_CONNECT_WALLET_IDS.includes(id)) && !env.WALLETCONNECT_PROJECT_ID
    ? [`- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`]
    : []
}
