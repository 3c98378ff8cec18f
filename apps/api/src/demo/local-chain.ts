// The app against a local anvil chain, one way for everything that runs it: `npm start`, `npm run cluster` and
// the bench (demoEnv), the API's integration and fault tests (startChain, startDemoChain, testEnv).
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type DemoDeployment, deployDemoDao } from '@guildhall/devchain/demo-dao'
import type { NameService } from '@guildhall/devchain/name-service'
import { DEMO_TREASURY_AGE_DAYS, type DemoTreasury, ensureDemoTreasury } from '@guildhall/devchain/safe'

type Env = Record<string, string | undefined>

/**
 * anvil on a free port as the local chain; `genesisBlockNumber` for a chain that starts long,
 * `genesisTimestamp` for one whose clock starts in the past.
 */
export async function startChain(
  options: { genesisBlockNumber?: number; genesisTimestamp?: number } = {},
): Promise<AnvilInstance> {
  return startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true, ...options })
}

export type DemoChain = { anvil: AnvilInstance; deployment: DemoDeployment; treasury?: DemoTreasury }

/**
 * The local chain with the demo DAO deployed (its token, members and Multicall3); with `treasury`, also its
 * treasury Safe and the Safe's months of history (ensureDemoTreasury), on a chain whose clock starts early
 * enough for them (demoChainGenesis) and is back at the present when this returns.
 */
export async function startDemoChain(options: { treasury?: boolean } = {}): Promise<DemoChain> {
  const anvil = await startChain(options.treasury ? { genesisTimestamp: demoChainGenesis() } : {})
  try {
    const deployment = await deployDemoDao({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    if (!options.treasury) return { anvil, deployment }
    const treasury = await ensureDemoTreasury({
      rpcUrl: anvil.url,
      chainId: LOCAL_CHAIN_ID,
      governanceToken: deployment.token,
    })
    return { anvil, deployment, treasury }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

/** When a demo chain with the treasury's history starts: a day before the treasury's first. */
export function demoChainGenesis(now = Date.now()): number {
  return Math.floor(now / 1000) - (DEMO_TREASURY_AGE_DAYS + 1) * 86_400
}

/** The treasury settings for the demo's treasury Safe: the Safe, its two tokens, its creation block. */
function treasuryEnv(treasury: DemoTreasury): Env {
  return {
    TREASURY_SAFE: treasury.safe.address,
    TREASURY_TOKENS: treasury.tokens.join(','),
    TREASURY_START_BLOCK: String(treasury.startBlock),
  }
}

/**
 * What the running chain dictates to the app's environment: its RPC and, once deployed, the demo DAO and
 * its treasury.
 */
function chainEnv(rpcUrl: string, deployment?: DemoDeployment, treasury?: DemoTreasury): Env {
  return {
    CHAIN_IDS: String(LOCAL_CHAIN_ID),
    [`RPC_URL_${LOCAL_CHAIN_ID}`]: rpcUrl,
    ...(deployment && {
      // deployDemoDao installs Multicall3 at its canonical address.
      [`MULTICALL3_ADDRESS_${LOCAL_CHAIN_ID}`]: MULTICALL3_ADDRESS,
      TOKEN_ADDRESS: deployment.token,
      TOKEN_DEPLOY_BLOCK: String(deployment.deployBlock),
    }),
    ...(treasury && treasuryEnv(treasury)),
  }
}

/** Where the server looks names up and finds avatars: the local name service, never offered to wallets (ADR 026). */
export function nameServiceEnv(nameService: NameService): Env {
  return { ENS_RPC_URL: nameService.rpcUrl, IPFS_GATEWAYS: nameService.ipfsGatewayUrl }
}

/** The API tests' environment on a chain: one injected wallet, so no WalletConnect project id is needed. */
export function testEnv(rpcUrl: string, deployment?: DemoDeployment, treasury?: DemoTreasury): Env {
  return { ...chainEnv(rpcUrl, deployment, treasury), WALLETS: 'injected' }
}

/** Demo members first, by name, so the development wallet opens as a member; the deployer last. */
function devWalletAccounts(deployment: DemoDeployment): string {
  const names = new Map(deployment.members.map((m) => [m.address.toLowerCase(), m.name]))
  const labelled = anvilAccounts.map((a) => ({
    address: a.address,
    label: names.get(a.address.toLowerCase()),
  }))
  const ordered = [...labelled.filter((a) => a.label), ...labelled.filter((a) => !a.label)]
  return ordered.map((a) => `${a.address}:${a.label ?? 'Deployer'}`).join(',')
}

/**
 * The local demo's environment, shared by `npm start` and `npm run bench` so both run the same app: demo
 * defaults, then the caller's environment (which may override them), then what the running chains dictate
 * (the DAO's, and the local name service's when one runs).
 */
export function demoEnv({
  anvilUrl,
  deployment,
  treasury,
  nameService,
  webDist,
  env = process.env,
}: {
  anvilUrl: string
  deployment: DemoDeployment
  treasury?: DemoTreasury
  nameService?: NameService
  webDist: string
  env?: Env
}): Env {
  return {
    DAO_NAME: 'Guildhall Demo DAO',
    DAO_DESCRIPTION:
      'A demo community running on a local chain: try connecting, delegating and adding the token to your wallet.',
    // RainbowKit's documented placeholder, which it swaps for its example WalletConnect project id.
    WALLETCONNECT_PROJECT_ID: 'YOUR_PROJECT_ID',
    LOG_LEVEL: 'warn',
    // A minute to object to a passed proposal before it can be queued for the Safe, rather than a day.
    EXECUTION_DELAY_SECONDS: '60',
    // Cleo moderates the demo's forum (the seed's hidden comment is hers).
    MODERATORS: anvilAccounts[3]?.address,
    // The demo shows a quadratic proposal; off by default elsewhere (it is not sybil-resistant).
    QUADRATIC_VOTING: 'on',
    ...env,
    ...chainEnv(anvilUrl, deployment, treasury),
    ...(nameService && nameServiceEnv(nameService)),
    DEV_WALLET_ACCOUNTS: devWalletAccounts(deployment),
    WEB_DIST: webDist,
  }
}
