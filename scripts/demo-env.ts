// The local demo's configuration, shared by `npm start` and `npm run bench` so both run the same app.
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'

type Env = Record<string, string | undefined>

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
 * The environment for the app against the demo chain: demo defaults, then the caller's environment
 * (which may override them), then what the running chain dictates.
 */
export function demoEnv({
  anvilUrl,
  deployment,
  webDist,
  env = process.env,
}: {
  anvilUrl: string
  deployment: DemoDeployment
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
    ...env,
    CHAIN_IDS: String(LOCAL_CHAIN_ID),
    [`RPC_URL_${LOCAL_CHAIN_ID}`]: anvilUrl,
    // deployDemoDao installs Multicall3 at its canonical address.
    [`MULTICALL3_ADDRESS_${LOCAL_CHAIN_ID}`]: MULTICALL3_ADDRESS,
    TOKEN_ADDRESS: deployment.token,
    TOKEN_DEPLOY_BLOCK: String(deployment.deployBlock),
    DEV_WALLET_ACCOUNTS: devWalletAccounts(deployment),
    WEB_DIST: webDist,
  }
}
