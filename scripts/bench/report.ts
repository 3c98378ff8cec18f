// The bench result: its JSON shape and the table printed for people.
import type { Size } from './bundle.ts'
import type { LoadTimings, RpcCount } from './page.ts'

export type Spread = { median: number; min: number; max: number; samples: number[] }

export type NetworkAtLoad = { rpc: RpcCount; external: { count: number; hosts: Record<string, number> } }

export type BenchResult = {
  date: string
  chromium: string
  bundle: {
    /** JS files the browser received from navigation until the page was ready and the network quiet. */
    loadedAtPageLoad: Size & { list: string[] }
    /** Vite's manifest: entry chunks plus their static imports (what loads before any dynamic import). */
    staticGraph: Size & { list: string[] }
    allJs: Size
  }
  pages: Record<string, Record<keyof LoadTimings, Spread>>
  network: {
    disconnected: NetworkAtLoad
    connected: NetworkAtLoad
    idleConnected: RpcCount & { seconds: number; postsPerMinute: number; callsPerMinute: number }
  }
}

export function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
  const round = (n: number) => Math.round(n)
  return {
    median: round(median),
    min: round(sorted[0] as number),
    max: round(sorted.at(-1) as number),
    samples: samples.map(round),
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const ms = (s: Spread) => `${s.median} ms (${s.min}–${s.max})`
const methods = (rpc: RpcCount) =>
  Object.entries(rpc.methods)
    .map(([method, n]) => `${method} ×${n}`)
    .join(', ') || 'none'
const hosts = (n: NetworkAtLoad) =>
  Object.entries(n.external.hosts)
    .map(([host, count]) => `${host} ×${count}`)
    .join(', ') || 'none'

function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)))
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
        .join('   '),
    )
    .join('\n')
}

export function formatReport(r: BenchResult): string {
  const { bundle, network } = r
  const size = (label: string, s: Size) => [label, String(s.files), kib(s.raw), kib(s.gzip)]
  const timing = (label: string, key: keyof LoadTimings) => [
    label,
    ...Object.values(r.pages).map((profile) => ms(profile[key])),
  ]
  const both = (label: string, figure: (n: NetworkAtLoad) => number) => [
    label,
    String(figure(network.disconnected)),
    String(figure(network.connected)),
  ]
  const idle = network.idleConnected
  return [
    `Guildhall bench: production build, ${r.date}, Chromium ${r.chromium}`,
    '',
    table([
      ['Bundle (JS)', 'files', 'raw', 'gzip -9'],
      size('loaded at page load (browser)', bundle.loadedAtPageLoad),
      size('static import graph (Vite manifest)', bundle.staticGraph),
      size('all JS in the build (assets/*.js)', bundle.allJs),
    ]),
    '  Sizes of the files on disk; gzip level 9 per file. "Loaded at page load" = JS the browser fetched',
    '  until the page was ready and the network quiet (includes dynamic imports made during start-up);',
    '  "static import graph" = entry + modulepreloads + their static imports, before any dynamic import.',
    '',
    table([
      ['Page (median of 5 cold loads, min–max)', ...Object.keys(r.pages)],
      timing('first contentful paint', 'fcp'),
      timing('"Connect Wallet" ready', 'connectReady'),
      timing('connect modal open after click', 'modalOpen'),
    ]),
    '  FCP and "ready" in ms since navigation start (ready = RainbowKit button without its aria-hidden,',
    '  opacity-0 pre-mount wrapper); modal = click until the "Connect a Wallet" dialog is shown. Fresh',
    '  context (empty cache) per load, no wallet. phone = 390×844 mobile UA, 4× CPU, +150 ms, 1.6 Mb/s.',
    '',
    table([
      ['Network at load (desktop)', 'disconnected', 'connected'],
      both('requests to other hosts (blocked)', (n) => n.external.count),
      both('RPC HTTP POSTs to /rpc/*', (n) => n.rpc.posts),
      both('JSON-RPC calls in them', (n) => n.rpc.calls),
      ['idle, connected, per minute (POSTs / calls)', '', `${idle.postsPerMinute} / ${idle.callsPerMinute}`],
    ]),
    `  other hosts, disconnected: ${hosts(network.disconnected)}`,
    `  other hosts, connected:    ${hosts(network.connected)}`,
    `  RPC at load, disconnected: ${methods(network.disconnected.rpc)}`,
    `  RPC at load, connected:    ${methods(network.connected.rpc)}`,
    `  RPC idle (${idle.seconds} s):          ${methods(idle)}`,
    '  "At load" = navigation until the wallet UI is ready and no request for 1.5 s; other hosts are',
    '  aborted (the bench never reaches the internet). Disconnected = no wallet in the browser; connected =',
    '  injected test wallet that already authorised the site (Ada active), fresh context; idle = the 20 s',
    '  after that load, scaled to a minute. JSON-RPC calls count each call inside batched arrays.',
  ].join('\n')
}
