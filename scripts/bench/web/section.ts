// The `web` section of `npm run bench`: Guildhall's Overview as `npm start` serves it beside a bare RainbowKit
// page with its wallet list (less the development wallet) and a plain-wagmi floor page, measured by the same
// code (page.ts).
import { join } from 'node:path'
import { signIn } from '@guildhall/api/testbed'
import { LOCAL_CHAIN_ID, type PublicConfig } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { TEST_WALLET_RDNS, testWalletInitScript } from '@guildhall/devchain/wallet/inject'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { PROFILES, type ProfileName } from '../harness/browser.ts'
import { allJs, indexHtmlJs, sizeOf, staticGraphJs } from '../harness/bundle.ts'
import type { BenchContext, SectionResult } from '../harness/context.ts'
import type { NetworkAtLoad, RpcCount } from '../harness/schema.ts'
import { spread } from '../harness/stats.ts'
import {
  type ColdLoad,
  type Cookie,
  coldLoad,
  type LoadTraffic,
  loadTraffic,
  type Target,
  tapAtFirstSight,
} from './page.ts'
import { RAINBOWKIT_SELECTORS, type Selectors } from './probe.ts'
import { buildReference, REFERENCES, type ReferenceName, serveReference } from './reference.ts'
import { checkBudget, formatWebReport, type PageFigures, type WebResult } from './report.ts'

const COLD_LOADS = 5
const IDLE_MS = 20_000

const FLOOR_SELECTORS: Selectors = {
  connectButton: '[data-testid="floor-connect-button"]',
  accountButton: '[data-testid="floor-account-button"]',
  walletOption: '[data-testid^="floor-wallet-option-"]',
}

type PageName = 'guildhall' | ReferenceName

function network(load: LoadTraffic): NetworkAtLoad {
  const hosts: Record<string, number> = {}
  for (const host of load.external) hosts[host] = (hosts[host] ?? 0) + 1
  return { rpc: load.rpc, external: { count: load.external.length, hosts } }
}

/** Bundle figures of one build, given the JS the browser fetched at load, disconnected and connected. */
function bundleFigures(
  dist: string,
  disconnected: LoadTraffic,
  connected: LoadTraffic,
): PageFigures['bundle'] {
  const assets = (load: LoadTraffic) => load.scripts.filter((file) => file.startsWith('assets/')).sort()
  const listed = (files: string[]) => ({ ...sizeOf(dist, files), list: files })
  const staticGraph = staticGraphJs(dist).sort()
  const fromHtml = indexHtmlJs(dist)
  if (fromHtml.length !== staticGraph.length || fromHtml.some((file) => !staticGraph.includes(file))) {
    console.warn(
      `note: ${dist}/index.html references ${fromHtml.join(', ')}; the manifest's static graph differs`,
    )
  }
  return {
    loadedAtPageLoad: listed(assets(disconnected)),
    loadedConnected: listed(assets(connected)),
    staticGraph: listed(staticGraph),
    allJs: sizeOf(dist, allJs(dist)),
  }
}

/**
 * A live sign-in session for `privateKey`, made over HTTP as the app makes it: the connected visitor is a
 * returning member, wallet authorised and signed in, so Guildhall shows the account as the references
 * (which have no sign-in step) do.
 */
async function signedInCookies(appUrl: string, config: PublicConfig, privateKey: Hex): Promise<Cookie[]> {
  const session = await signIn(new URL(appUrl).origin, privateKeyToAccount(privateKey), config.dao.name)
  const [name = '', ...value] = session.split('=')
  return [{ name, value: value.join('=') }]
}

export async function webSection(ctx: BenchContext): Promise<SectionResult> {
  const referenceDist = (name: ReferenceName) => join(ctx.outDir, 'reference', name)
  // Guildhall's build runs in a child process while the references build in this one.
  const [guildhallDist] = await Promise.all([
    ctx.webDist(),
    (async () => {
      if (ctx.noBuild) return
      for (const name of Object.keys(REFERENCES) as ReferenceName[]) {
        ctx.step(`building the ${REFERENCES[name].label} page (into bench-results/reference/${name})`)
        await buildReference(name, referenceDist(name))
      }
    })(),
  ])
  // The Overview as `npm start` serves it, the demo's development wallet included: its wallet list is the
  // bare RainbowKit page's 7 wallets and that one.
  const { anvil, appUrl, publicConfig } = await ctx.startStack(guildhallDist)
  const target = (name: PageName, url: string, selectors: Selectors, dist: string) => ({
    name,
    url,
    selectors,
    dist,
    failureDir: ctx.outDir,
  })
  const targets: Record<PageName, Target & { dist: string }> = {
    guildhall: target('guildhall', appUrl, RAINBOWKIT_SELECTORS, guildhallDist),
    rainbowkit: target('rainbowkit', '', RAINBOWKIT_SELECTORS, referenceDist('rainbowkit')),
    floor: target('floor', '', FLOOR_SELECTORS, referenceDist('floor')),
  }
  for (const name of Object.keys(REFERENCES) as ReferenceName[]) {
    const server = await serveReference(targets[name].dist, {
      chainId: LOCAL_CHAIN_ID,
      upstreamUrl: anvil.url,
    })
    ctx.cleanups.push(server.close)
    targets[name].url = server.url
  }
  const browser = await ctx.browser()
  const names = Object.keys(targets) as PageName[]

  // A wallet that already authorised the site on an earlier visit; Ada (account 1, a member) active. The
  // page remembers that connection too, as after connecting there: Guildhall reconnects only a connection
  // it remembers under the spec's key (ADR 042), not every wallet that still grants the site (wagmi's
  // default, which the reference pages keep).
  const walletScript = `${testWalletInitScript({
    chains: [{ chainId: LOCAL_CHAIN_ID, rpcUrl: anvil.url, name: 'Local chain' }],
    accounts: [anvilAccounts[1], ...anvilAccounts.filter((_, i) => i !== 1)].map((a) => a?.address as Hex),
    connected: true,
    persist: false,
  })}\nlocalStorage.setItem(${JSON.stringify(`wagmi.${TEST_WALLET_RDNS}.shimDisconnect`)}, 'true');`
  const ada = anvilAccounts[1] as { privateKey: Hex }
  const cookies: Record<PageName, Cookie[]> = {
    guildhall: publicConfig.signIn ? await signedInCookies(appUrl, publicConfig, ada.privateKey) : [],
    rainbowkit: [],
    floor: [],
  }
  // The three pages side by side: these loads count requests, not time, and idle is mostly waiting.
  ctx.step(
    `network: disconnected load, then connected load and ${IDLE_MS / 1000} s idle (${names.join(', ')})`,
  )
  const traffic = Object.fromEntries(
    await Promise.all(
      names.map(async (name) => {
        const disconnected = await loadTraffic(browser, targets[name], { ready: 'connectReady' })
        const connected = await loadTraffic(browser, targets[name], {
          walletScript,
          cookies: cookies[name],
          ready: 'accountReady',
          idleMs: IDLE_MS,
        })
        return [name, { disconnected, connected }] as const
      }),
    ),
  ) as Record<PageName, { disconnected: LoadTraffic; connected: LoadTraffic & { idle?: RpcCount } }>

  const coldLoads = Object.fromEntries(
    names.map((name) => [name, { desktop: [], phone: [] } as Record<ProfileName, ColdLoad[]>]),
  ) as Record<PageName, Record<ProfileName, ColdLoad[]>>
  const firstTaps = Object.fromEntries(
    names.map((name) => [name, { desktop: [], phone: [] } as Record<ProfileName, number[]>]),
  ) as Record<PageName, Record<ProfileName, number[]>>
  for (const profile of PROFILES) {
    for (let i = 1; i <= COLD_LOADS; i++) {
      // Interleaved, so that a burst of load from elsewhere on the machine hits all three pages alike.
      ctx.step(
        `${profile.name} cold loads ${i}/${COLD_LOADS} (${names.join(', ')}; settled, then tapped at first sight)`,
      )
      for (const name of names) {
        coldLoads[name][profile.name].push(await coldLoad(browser, profile, targets[name]))
        firstTaps[name][profile.name].push(await tapAtFirstSight(browser, profile, targets[name]))
      }
    }
  }

  const figures = {} as Record<PageName, PageFigures>
  for (const name of names) {
    const { disconnected, connected } = traffic[name]
    const idle = connected.idle ?? { posts: 0, calls: 0, methods: {} }
    const perMinute = 60_000 / IDLE_MS
    const pages = {} as PageFigures['pages']
    for (const profile of PROFILES) {
      const runs = coldLoads[name][profile.name]
      const keys = Object.keys(runs[0] as ColdLoad) as Array<keyof ColdLoad>
      pages[profile.name] = {
        ...Object.fromEntries(keys.map((key) => [key, spread(runs.map((run) => run[key]))])),
        modalAtFirstSight: spread(firstTaps[name][profile.name]),
      } as PageFigures['pages'][ProfileName]
    }
    figures[name] = {
      bundle: bundleFigures(targets[name].dist, disconnected, connected),
      pages,
      network: {
        disconnected: network(disconnected),
        connected: network(connected),
        idleConnected: {
          ...idle,
          seconds: IDLE_MS / 1000,
          postsPerMinute: Math.round(idle.posts * perMinute),
          callsPerMinute: Math.round(idle.calls * perMinute),
        },
      },
    }
  }

  const { guildhall, ...references } = figures
  const result: WebResult = {
    ...guildhall,
    references: {
      rainbowkit: { label: REFERENCES.rainbowkit.label, ...references.rainbowkit },
      floor: { label: REFERENCES.floor.label, ...references.floor },
    },
    budget: checkBudget(guildhall, references),
  }
  return {
    json: result,
    report: formatWebReport(result, { date: new Date().toISOString(), chromium: browser.version() }),
    misses: result.budget.filter((line) => !line.pass).length,
  }
}
