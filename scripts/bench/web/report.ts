// The web section's result: its JSON shape, the budget check and the table printed for people.
import type { ProfileName } from '../harness/browser.ts'
import type { BudgetLine, NetworkAtLoad, RpcCount, Size, Spread } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'
import type { ColdLoad } from './page.ts'
import type { ReferenceName } from './reference.ts'

type Listed = Size & { list: string[] }

/** Everything measured on one page: Guildhall's or a reference page's, by the same code. */
export type PageFigures = {
  bundle: {
    /** JS files the browser received from navigation until the page was ready and the network quiet. */
    loadedAtPageLoad: Listed
    /** The same with a wallet connected (injected test wallet that already authorised the site). */
    loadedConnected: Listed
    /** Vite's manifest: entry chunks plus their static imports (what loads before any dynamic import). */
    staticGraph: Listed
    allJs: Size
  }
  /**
   * Cold loads without a wallet, per profile: each figure's median, min–max and samples; and, from loads of
   * their own, the connect dialog's opening (ms since navigation) when "Connect Wallet" is tapped at first sight.
   */
  pages: Record<ProfileName, Record<keyof ColdLoad | 'modalAtFirstSight', Spread>>
  network: {
    disconnected: NetworkAtLoad
    connected: NetworkAtLoad
    idleConnected: RpcCount & { seconds: number; postsPerMinute: number; callsPerMinute: number }
  }
}

/** bench.json's web part: Guildhall's figures at the top level (as before), the references beside them. */
export type WebResult = PageFigures & {
  references: Record<ReferenceName, PageFigures & { label: string }>
  budget: BudgetLine[]
}

const KIB = 1024
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`
const msOf = (n: number) => `${Math.round(n)} ms`
const plain = (n: number) => String(Math.round(n))
const pct = (part: number, whole: number) => `${Math.round((part / whole) * 100)}%`

const JS_AT_LOAD_BUDGET = 300 * KIB
const FCP_VS_FLOOR = 1.3
const READY_VS_RAINBOWKIT_PHONE = 0.7
const POLLING_INTERVAL_S = 4

/** Each line of the first-page budget (ADR 014), PASS or MISS, and by how much it misses. */
export function checkBudget(guildhall: PageFigures, refs: Record<ReferenceName, PageFigures>): BudgetLine[] {
  const lines: BudgetLine[] = []
  const atMost = (
    budget: string,
    measured: number,
    limit: number,
    unit: (n: number) => string,
    extra = '',
  ) => {
    const pass = measured <= limit
    const unitName = unit === kib ? 'KiB' : unit === msOf ? 'ms' : 'requests'
    const inUnit = (n: number) => Math.round((unit === kib ? n / KIB : n) * 10) / 10
    lines.push({
      budget,
      pass,
      value: inUnit(measured),
      limit: inUnit(limit),
      unit: unitName,
      measured: `${unit(measured)} (limit ${unit(limit)})${extra}`,
      ...(pass
        ? {}
        : {
            miss: `over by ${unit(measured - limit)}${limit > 0 ? ` (+${pct(measured - limit, limit)})` : ''}`,
          }),
    })
  }
  // The Overview as `npm start` serves it (every wallet and the development wallet), first visit (no
  // wallet) and a returning member's visit.
  atMost(
    'JS at load ≤ 300 KiB gzip, disconnected (Overview as npm start serves it)',
    guildhall.bundle.loadedAtPageLoad.gzip,
    JS_AT_LOAD_BUDGET,
    kib,
  )
  atMost(
    'JS at load ≤ 300 KiB gzip, connected (Overview as npm start serves it)',
    guildhall.bundle.loadedConnected.gzip,
    JS_AT_LOAD_BUDGET,
    kib,
  )
  for (const profile of ['desktop', 'phone'] as const) {
    const fcp = guildhall.pages[profile].fcp.median
    const floor = refs.floor.pages[profile].fcp.median
    atMost(
      `FCP ≤ 1.3× the floor page (${profile})`,
      fcp,
      floor * FCP_VS_FLOOR,
      msOf,
      `, ${ratio(fcp, floor)} floor`,
    )
  }
  {
    const ready = guildhall.pages.phone.connectReady.median
    const rainbowKit = refs.rainbowkit.pages.phone.connectReady.median
    atMost(
      '"Connect Wallet" ready (the real button) ≤ 0.7× bare RainbowKit (phone)',
      ready,
      rainbowKit * READY_VS_RAINBOWKIT_PHONE,
      msOf,
      `, ${ratio(ready, rainbowKit)} RainbowKit`,
    )
  }
  for (const profile of ['desktop', 'phone'] as const) {
    const open = guildhall.pages[profile].modalOpen.median
    const rainbowKit = refs.rainbowkit.pages[profile].modalOpen.median
    atMost(`connect modal open ≤ bare RainbowKit (${profile})`, open, rainbowKit, msOf)
  }
  const disconnectedMax = Math.max(
    guildhall.pages.desktop.externalAtLoad.max,
    guildhall.pages.phone.externalAtLoad.max,
    guildhall.network.disconnected.external.count,
  )
  atMost('0 requests to other hosts at load, disconnected (every cold load)', disconnectedMax, 0, plain)
  atMost('0 requests to other hosts at load, connected', guildhall.network.connected.external.count, 0, plain)
  const idle = guildhall.network.idleConnected
  atMost(
    'idle connected: ≤ 1 RPC request per polling interval (4 s)',
    idle.posts,
    idle.seconds / POLLING_INTERVAL_S,
    plain,
    ` POSTs in ${idle.seconds} s`,
  )
  return lines
}

function ratio(a: number, b: number): string {
  if (b === 0) return a === 0 ? '=' : '—'
  return `${(a / b).toFixed(2)}×`
}

const methods = (rpc: RpcCount) =>
  Object.entries(rpc.methods)
    .map(([method, n]) => `${method} ×${n}`)
    .join(', ') || 'none'
const hosts = (n: NetworkAtLoad) =>
  Object.entries(n.external.hosts)
    .map(([host, count]) => `${host} ×${count}`)
    .join(', ') || 'none'

export function formatWebReport(r: WebResult, meta: { date: string; chromium: string }): string {
  const pages: Array<[string, PageFigures]> = [
    ['Guildhall', r],
    [r.references.rainbowkit.label, r.references.rainbowkit],
    [r.references.floor.label, r.references.floor],
  ]
  // A row: the label, each page's figure, then Guildhall ÷ RainbowKit and Guildhall ÷ floor (medians).
  const row = (label: string, value: (p: PageFigures) => number, unit: (n: number) => string) => {
    const [g, rk, floor] = pages.map(([, p]) => value(p)) as [number, number, number]
    return [label, unit(g), unit(rk), unit(floor), ratio(g, rk), ratio(g, floor)]
  }
  const spreadRow = (
    label: string,
    profile: ProfileName,
    key: keyof PageFigures['pages'][ProfileName],
    unit: (n: number) => string = plain,
  ) => {
    const figure = (p: PageFigures) => p.pages[profile][key]
    const cell = (p: PageFigures) =>
      `${unit(figure(p).median)} (${unit(figure(p).min)}–${unit(figure(p).max)})`
    const [g, rk, floor] = pages.map(([, p]) => figure(p).median) as [number, number, number]
    return [label, ...pages.map(([, p]) => cell(p)), ratio(g, rk), ratio(g, floor)]
  }
  const noUnitMib = (n: number) => (n / KIB / KIB).toFixed(1)
  const profileRows = (profile: ProfileName) => [
    [`${profile} (median of 5, min–max)`],
    spreadRow('  first contentful paint, ms', profile, 'fcp'),
    spreadRow('  "Connect Wallet" visible, ms', profile, 'connectVisible'),
    spreadRow('  "Connect Wallet" ready (the real button), ms', profile, 'connectReady'),
    spreadRow('  modal open, tapped at first sight, ms', profile, 'modalAtFirstSight'),
    spreadRow('  connect modal open after click, ms', profile, 'modalOpen'),
    spreadRow('  wallet list visible after click, ms', profile, 'walletList'),
    spreadRow('  JS heap after load, MiB', profile, 'heapBytes', noUnitMib),
    spreadRow('  long tasks until click', profile, 'longTasks'),
    spreadRow('  long-task time until click, ms', profile, 'longTaskMs'),
    spreadRow('  other hosts at load', profile, 'externalAtLoad'),
    spreadRow('  other hosts after click', profile, 'externalAfterClick'),
  ]
  const n = (p: PageFigures) => p.network
  const figures = table([
    ['', ...pages.map(([name]) => name), 'G/RainbowKit', 'G/floor'],
    ['JS (gzip -9 of the files on disk)'],
    row('  at load, disconnected: gzip', (p) => p.bundle.loadedAtPageLoad.gzip, kib),
    row('  at load, disconnected: raw', (p) => p.bundle.loadedAtPageLoad.raw, kib),
    row('  at load, disconnected: chunks', (p) => p.bundle.loadedAtPageLoad.files, plain),
    row('  at load, connected: gzip', (p) => p.bundle.loadedConnected.gzip, kib),
    row('  at load, connected: chunks', (p) => p.bundle.loadedConnected.files, plain),
    row('  total JS in the build: gzip', (p) => p.bundle.allJs.gzip, kib),
    row('  total JS in the build: raw', (p) => p.bundle.allJs.raw, kib),
    row('  total JS in the build: chunks', (p) => p.bundle.allJs.files, plain),
    ...profileRows('desktop'),
    ...profileRows('phone'),
    ['network (desktop, one load each)'],
    row('  other hosts at load, connected', (p) => n(p).connected.external.count, plain),
    row('  RPC POSTs at load, disconnected', (p) => n(p).disconnected.rpc.posts, plain),
    row('  RPC calls at load, disconnected', (p) => n(p).disconnected.rpc.calls, plain),
    row('  RPC POSTs at load, connected', (p) => n(p).connected.rpc.posts, plain),
    row('  RPC calls at load, connected', (p) => n(p).connected.rpc.calls, plain),
    row('  RPC POSTs per minute, idle connected', (p) => n(p).idleConnected.postsPerMinute, plain),
    row('  RPC calls per minute, idle connected', (p) => n(p).idleConnected.callsPerMinute, plain),
  ])
  const details = pages.flatMap(([name, p]) => [
    `  ${name}:`,
    `    other hosts, disconnected: ${hosts(p.network.disconnected)}; connected: ${hosts(p.network.connected)}`,
    `    RPC at load, disconnected: ${methods(p.network.disconnected.rpc)}`,
    `    RPC at load, connected:    ${methods(p.network.connected.rpc)}`,
    `    RPC idle (${p.network.idleConnected.seconds} s):          ${methods(p.network.idleConnected)}`,
  ])
  const budget = table([
    ['Budget', 'result', 'measured', 'miss'],
    ...r.budget.map((line) => [line.budget, line.pass ? 'PASS' : 'MISS', line.measured, line.miss ?? '']),
  ])
  return [
    `Guildhall web bench: production builds, ${meta.date}, Chromium ${meta.chromium}`,
    '',
    figures,
    '',
    '  The three pages are measured by the same code, their loads interleaved (G, RK, floor, G, …) so',
    '  machine noise falls on all three. Cold load = fresh context (empty cache), no wallet; all served',
    '  from 127.0.0.1 by @fastify/static with the same pre-compressed brotli files and cache headers.',
    "  Guildhall runs as `npm start` serves it: bare RainbowKit's 7 wallets and the demo's development",
    '  wallet (offered only against the local chain, never on a real network), and the local name service.',
    '  JS: "at load" = JS the browser fetched until the page was ready and the network quiet for 1.5 s',
    '  (dynamic imports made during start-up included); sizes of the files on disk, gzip -9 per file.',
    '  FCP, "visible" and "ready" in ms since navigation start. Visible = a button labelled "Connect',
    '  Wallet" shown (rendered, not visibility:hidden, not aria-hidden, opacity 1); ready = the page\'s real',
    "  connect button shown (RainbowKit's; the floor's own), whose press opens the modal at once. Guildhall",
    '  shows a stand-in first (ADR 008): a press on it waits for the wallet kit, then opens the modal.',
    '  "Tapped at first sight" = loads of their own in which the first "Connect Wallet" shown is tapped',
    '  (clicked on desktop) at once, where it is: ms since navigation start until the dialog opens.',
    '  Otherwise the click (a tap on phone) comes once the page has settled (no request for 0.5 s, at most 10 s),',
    '  with no hover beforehand: the pointer reaches the button just before it clicks. Modal open = click',
    '  until the "Connect a Wallet" dialog has a box; wallet list = every wallet option in it shown with',
    '  its icon loaded. Heap = Runtime.getHeapUsage after a forced GC, before the click. Long tasks =',
    '  main-thread tasks ≥ 50 ms before the click. Other hosts are blocked (nothing leaves the machine).',
    '  phone = 390×844 mobile UA, touch, 4× CPU slowdown, +150 ms latency, 1.6 Mb/s. Network rows: one',
    '  desktop load each, disconnected, and connected: an injected test wallet that already authorised',
    '  the site (Guildhall: and a live sign-in session, as a returning member has; the references have no',
    '  sign-in); idle = the 20 s after the connected load, scaled to a minute; RPC calls count each call',
    '  in a batch (the three pages load side by side for these rows: they count requests, not time).',
    '  The floor\'s "modal" is a native <dialog> listing its connectors. Timings vary with the machine\'s',
    '  load: compare columns of one run, not runs of different days.',
    ...details,
    '',
    budget,
  ].join('\n')
}
