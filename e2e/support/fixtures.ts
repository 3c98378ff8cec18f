// Playwright fixtures: every worker runs its own anvil pair (the DAO chain 31337 and a second chain 31338
// for switching), the local name service and its own app server; every test gets a page with the injected
// test wallet.
import { resolve } from 'node:path'
import { type Settings, startServer } from '@guildhall/api'
import type { Database } from '@guildhall/api/database'
import { nameServiceEnv } from '@guildhall/api/demo'
import { testSettings } from '@guildhall/api/testbed'
import { LOCAL_CHAIN_ID, nameListSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { type AnvilInstance, getFreePort, startAnvil } from '@guildhall/devchain/anvil'
import { type DemoDeployment, deployDemoDao } from '@guildhall/devchain/demo-dao'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import type { TestWalletInjectOptions } from '@guildhall/devchain/wallet/inject'
import { TestWallet } from '@guildhall/devchain/wallet/playwright'
import { type BrowserContext, test as base, expect, type Page } from '@playwright/test'
import type { Hex } from 'viem'

export const SECOND_CHAIN_ID = 31_338
export const SECOND_CHAIN_NAME = 'Guildhall Testnet'
// E2E_WEB_DIST lets a build elsewhere be tested while apps/web/dist is in use (e.g. two checkouts' runs).
export const WEB_DIST = process.env.E2E_WEB_DIST ?? resolve(import.meta.dirname, '../../apps/web/dist')

/** Demo members by name, from the seed: Ada (1000, self), Dev (250 → Ada), Finn (50, undelegated), Iris (none)… */
export const member = (index: number) => anvilAccounts[index]?.address as Hex

export interface Chains {
  dao: AnvilInstance
  second: AnvilInstance
  deployment: DemoDeployment
  /** The local name service (chain 1, server-only): ada.eth, ben.eth, … with avatars on a stand-in gateway. */
  names: NameService
}

/**
 * How far this worker's app server's clock runs ahead of the real one, in seconds: a spec moves it to pass
 * a proposal's end and the delays after it (the chain keeps its own time), and sets it back after.
 */
export const serverClock = { aheadSeconds: 0 }

export interface App {
  url: string
  settings: Settings
  /** The server's own database (in-memory PGlite in this process), for tests that tamper with what it stores. */
  database: Database
}

interface WorkerFixtures {
  chains: Chains
  /** Environment overrides for this file's app server (e.g. one chain only, no WalletConnect wallets). */
  appEnv: Record<string, string | undefined>
  app: App
}

interface TestFixtures {
  /**
   * The Content-Security-Policy violations (by directive) the test must cause, no more and no fewer: a
   * spec that checks the policy sets `[]`, and each test then fails on any violation. Unset, the
   * violations are not recorded.
   */
  expectedCspViolations: string[] | undefined
  cspViolationCheck: undefined
  /** Options of the injected wallet; `{ absent: true }` for a browser without any wallet. */
  walletOptions: Partial<TestWalletInjectOptions>
  wallet: TestWallet
  /** URLs on hosts other than 127.0.0.1 that any page of the context tried to reach (they are blocked). */
  offOriginRequests: string[]
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  chains: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright needs the destructuring
    async ({}, use) => {
      const dao = await startAnvil({ port: await getFreePort(), chainId: LOCAL_CHAIN_ID, quiet: true })
      const second = await startAnvil({ port: await getFreePort(), chainId: SECOND_CHAIN_ID, quiet: true })
      const [deployment, names] = await Promise.all([
        deployDemoDao({ rpcUrl: dao.url, chainId: LOCAL_CHAIN_ID }),
        startNameService(),
      ])
      await use({ dao, second, deployment, names })
      await Promise.all([dao.stop(), second.stop(), names.stop()])
    },
    { scope: 'worker' },
  ],
  appEnv: [{}, { scope: 'worker', option: true }],
  app: [
    async ({ chains, appEnv }, use) => {
      const { settings, server } = await startOnFreePort((port) =>
        testSettings({
          rpcUrl: chains.dao.url,
          deployment: chains.deployment,
          origin: `http://127.0.0.1:${port}`,
          env: {
            PORT: String(port),
            LOG_LEVEL: 'silent',
            DAO_NAME: 'Guildhall Test DAO',
            DAO_DESCRIPTION: 'The DAO the end-to-end tests run against.',
            CHAIN_IDS: `${LOCAL_CHAIN_ID},${SECOND_CHAIN_ID}`,
            [`RPC_URL_${SECOND_CHAIN_ID}`]: chains.second.url,
            [`CHAIN_NAME_${SECOND_CHAIN_ID}`]: SECOND_CHAIN_NAME,
            // Every wallet the modal offers by default, not the API tests' injected one only.
            WALLETS: undefined,
            WALLETCONNECT_PROJECT_ID: 'YOUR_PROJECT_ID',
            DISCLAIMER: 'By connecting you agree to the test terms.',
            LEARN_MORE_URL: 'https://example.org/learn-about-wallets',
            // The app runs on the local chain 31337, so the "Development" wallet group is offered.
            DEV_WALLET_ACCOUNTS: anvilAccounts.map((a) => a.address).join(','),
            WEB_DIST,
            // The wallet-connection specs run connect-only (sign-in is optional); sign-in specs turn it on.
            SIGN_IN: 'off',
            ...nameServiceEnv(chains.names),
            ...appEnv,
          },
        }),
      )
      await use({ url: settings.publicConfig.appUrl, settings, database: server.database })
      await server.close()
    },
    { scope: 'worker' },
  ],
  offOriginRequests: [
    async ({ context }, use) => {
      const seen: string[] = []
      const offOrigin = (url: URL) => url.hostname !== '127.0.0.1'
      // The outside world (WalletConnect relay and config, wallet SDK telemetry, app stores opened in new
      // tabs) is not reachable offline: every page of the context, popups included, has such requests
      // and WebSockets refused here, and recorded so tests can assert on them.
      await context.route(offOrigin, (route) => {
        seen.push(route.request().url())
        return route.abort('blockedbyclient')
      })
      await context.routeWebSocket(offOrigin, (ws) => {
        seen.push(ws.url())
        return ws.close({ code: 1008, reason: 'blocked by the test' })
      })
      await use(seen)
    },
    { auto: true },
  ],
  expectedCspViolations: [undefined, { option: true }],
  cspViolationCheck: [
    async ({ context, expectedCspViolations }, use) => {
      if (!expectedCspViolations) return use(undefined)
      const violations = await recordCspViolations(context)
      await use(undefined)
      expect(
        violations.map((violation) => violation.directive).sort(),
        `CSP violations: ${JSON.stringify(violations, null, 2)}`,
      ).toEqual([...expectedCspViolations].sort())
    },
    { auto: true },
  ],
  walletOptions: [{}, { option: true }],
  wallet: [
    async ({ page, chains, walletOptions }, use) => {
      const wallet = await TestWallet.install(page, {
        chains: [
          { chainId: LOCAL_CHAIN_ID, rpcUrl: chains.dao.url, name: 'Local chain' },
          { chainId: SECOND_CHAIN_ID, rpcUrl: chains.second.url, name: SECOND_CHAIN_NAME },
        ],
        accounts: anvilAccounts.map((a) => a.address as Hex),
        ...walletOptions,
      })
      await use(wallet)
    },
    { auto: true },
  ],
})

export { expect }

/**
 * The app server on a port free when chosen. Another worker may take that port before the server listens
 * (migrations and the app's start take seconds): the server is then started again on another port.
 */
async function startOnFreePort(settingsFor: (port: number) => Settings) {
  const now = () => new Date(Date.now() + serverClock.aheadSeconds * 1000)
  for (let attempt = 1; ; attempt++) {
    const settings = settingsFor(await getFreePort())
    try {
      return { settings, server: await startServer(settings, { now }) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 5) throw error
    }
  }
}

interface CspViolation {
  url: string
  directive: string
  blocked: string
  sample: string
}

/**
 * Every `securitypolicyviolation` event of every page and frame of the context, popups included, as the
 * browser fires them: from an init script (which the policy does not govern) to the test process.
 */
async function recordCspViolations(context: BrowserContext): Promise<CspViolation[]> {
  const violations: CspViolation[] = []
  await context.exposeBinding('__reportCspViolation', (_source, violation: CspViolation) => {
    violations.push(violation)
  })
  await context.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (v: unknown) => void }).__reportCspViolation
    document.addEventListener('securitypolicyviolation', (event) =>
      report({
        url: event.documentURI,
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
      }),
    )
  })
  return violations
}

/** The connect button once RainbowKit has mounted (before that it is only `opacity: 0` + aria-hidden). */
export const connectButton = (page: Page) => page.getByRole('button', { name: 'Connect Wallet' })

/** Opens the app and connects the injected test wallet through the connect modal. */
export async function connect(page: Page, app: App, path = '/') {
  await page.goto(`${app.url}${path}`)
  await connectButton(page).click()
  await page.getByTestId('rk-wallet-option-dev.guildhall.testwallet').click()
  await expect(page.getByTestId('rk-account-button')).toBeVisible()
}

/**
 * The names the app shows for `addresses` (null: the shortened address), once the server's name refresher
 * has looked each of them up: asked of GET /api/names until none is pending, so a test asserts on what the
 * app settles on, not on the moment before a name arrives.
 */
export async function resolvedNames(page: Page, app: App, addresses: string[]) {
  const names = new Map<string, string | null>()
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${app.url}/api/names?addresses=${addresses.join(',')}`)
        const body = nameListSchema.parse(await response.json())
        for (const answer of body.names) names.set(answer.address.toLowerCase(), answer.name)
        return body.names.filter((answer) => !answer.pending).length
      },
      { message: 'names still pending' },
    )
    .toBe(addresses.length)
  return (address: string) => names.get(address.toLowerCase()) ?? null
}
