import {
  shortenAddress,
  type TreasuryCharts,
  type TreasuryHistoryItem,
  type TreasurySpending,
  type TreasurySummary,
  treasuryChartsSchema,
  treasuryHistoryPageSchema,
  treasurySpendingSchema,
  treasurySummarySchema,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import type { Address } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { TreasuryPage } from './treasury-page.tsx'

const [ada, ben, cleo, dev] = anvilAccounts.map((account) => account.address as Address)
if (!ada || !ben || !cleo || !dev) throw new Error('anvil accounts missing')
const SAFE = '0x1F98431c8aD98523631AE4a59f267346ea31F984' as Address
const GHD = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const MODULE = '0x00000000000000000000000000000000000000AA' as Address
const PROPOSAL = `0x${'ab'.repeat(32)}` as const
const TX = `0x${'cd'.repeat(32)}` as const

const summary: TreasurySummary = treasurySummarySchema.parse({
  configured: true,
  safe: {
    address: SAFE,
    name: 'treasury.guildhall.eth',
    version: '1.5.0',
    owners: [ada, ben, cleo],
    threshold: 2,
    nonce: 4,
    modules: [MODULE],
    guard: null,
  },
  addresses: [],
  blockNumber: 1234,
  warnings: [
    {
      kind: 'module',
      address: MODULE,
      message: 'A module is enabled: it can move funds without the signers.',
    },
  ],
  assets: [
    { token: null, symbol: 'ETH', decimals: 18, balance: '1500000000000000000', value: null },
    {
      token: GHD,
      symbol: 'GHD',
      decimals: 18,
      balance: '1000000000000000000000',
      value: { amount: '2,000.00', currency: 'USD' },
    },
  ],
})

const row = (
  item: Partial<TreasuryHistoryItem> & Pick<TreasuryHistoryItem, 'id' | 'kind'>,
): TreasuryHistoryItem => ({
  blockNumber: 100,
  logIndex: 0,
  timestamp: 1_790_000_000,
  transactionHash: TX,
  token: null,
  amount: null,
  counterparty: null,
  detail: '',
  safeTxHash: null,
  safeNonce: null,
  proposal: null,
  outsideGuildhall: false,
  ...item,
})

const historyRows: TreasuryHistoryItem[] = [
  row({
    id: '9-0',
    kind: 'execution',
    detail: 'Executed',
    safeNonce: 3,
    proposal: { id: PROPOSAL, title: 'Pay the auditors' },
  }),
  row({ id: '8-0', kind: 'execution', detail: 'Executed', safeNonce: 2, outsideGuildhall: true }),
  row({ id: '7-u', kind: 'unexplained', logIndex: -1, transactionHash: null, amount: '250000000000000000' }),
  row({ id: '6-1', kind: 'outgoing', token: GHD, amount: '50000000000000000000', counterparty: dev }),
]
const moreRows: TreasuryHistoryItem[] = [
  row({ id: '5-0', kind: 'incoming', amount: '2000000000000000000', counterparty: ben }),
  row({ id: '4-0', kind: 'settings', detail: `AddedOwner ${cleo}` }),
]

const charts: TreasuryCharts = treasuryChartsSchema.parse({
  token: null,
  balance: [
    { timestamp: 1_788_000_000, balance: '0' },
    { timestamp: 1_789_000_000, balance: '2000000000000000000' },
    { timestamp: 1_790_000_000, balance: '1500000000000000000' },
  ],
  flows: [
    { month: '2026-09', incoming: '2000000000000000000', outgoing: '0' },
    { month: '2026-10', incoming: '0', outgoing: '500000000000000000' },
  ],
})

const spending: TreasurySpending = treasurySpendingSchema.parse({
  categories: [
    { category: 'Security', token: GHD, amount: '50000000000000000000', proposals: 1 },
    { category: '', token: null, amount: '250000000000000000', proposals: 2 },
    { category: null, token: GHD, amount: '1000000000000000000', proposals: 0 },
  ],
})

type Reply = { status: number; body: unknown }
const json = (body: unknown, status = 200): Reply => ({ status, body })

/**
 * Stands in for the server's treasury API (answers checked against core's schemas, as the server checks its
 * own) and its names (Ada is ada.eth). `summaryReplies` answer GET /api/treasury in turn, the last for good.
 * Records every path asked.
 */
function treasuryServer(summaryReplies: Reply[]) {
  const asked: string[] = []
  const summaries = [...summaryReplies]
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app')
    asked.push(`${url.pathname}${url.search}`)
    const reply = ((): Reply => {
      switch (url.pathname) {
        case '/api/treasury':
          return (summaries.length > 1 ? summaries.shift() : summaries[0]) ?? json({}, 500)
        case '/api/treasury/history': {
          const cursor = url.searchParams.get('cursor')
          const page = cursor
            ? { items: moreRows, next: null }
            : url.searchParams.get('direction') === 'settings'
              ? { items: [moreRows[1]], next: null }
              : { items: historyRows, next: 'page-2' }
          return json(treasuryHistoryPageSchema.parse(page))
        }
        case '/api/treasury/charts':
          return json(charts)
        case '/api/treasury/spending':
          return json(spending)
        case '/api/names': {
          const addresses = url.searchParams.get('addresses')?.split(',') ?? []
          return json({
            names: addresses.map((address) => ({
              address,
              name: address === ada ? 'ada.eth' : null,
              avatarUrl: null,
              pending: false,
            })),
          })
        }
        default:
          return json({ error: 'not_found', message: 'Not found.' }, 404)
      }
    })()
    return new Response(JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json' },
    })
  })
  return asked
}

/** Where the page's links and filters lead: the URL the router holds. */
function Where() {
  const location = useLocation()
  return <output data-testid="where">{`${location.pathname}${location.search}`}</output>
}

function renderPage(path = '/treasury') {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/treasury" element={<TreasuryPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('TreasuryPage: each state of the page', () => {
  test('behavior: while the Safe is read the page says so', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}))
    renderPage()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Treasury')
    expect(screen.getByText('Loading the treasury…')).toBeTruthy()
  })

  test('behavior: without a treasury Safe configured the page says "No treasury is configured" and asks nothing more', async () => {
    const asked = treasuryServer([
      json(
        treasurySummarySchema.parse({
          configured: false,
          safe: null,
          addresses: [],
          blockNumber: 0,
          warnings: [],
          assets: [],
        }),
      ),
    ])
    renderPage()
    expect((await screen.findByTestId('treasury-none')).textContent).toBe('No treasury is configured.')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(asked).toEqual(['/api/treasury'])
  })

  test('error: a Safe the server cannot read shows exactly "Could not load Safe information", the server’s reason, and Retry, which reads again and shows the Safe', async () => {
    const asked = treasuryServer([
      json(
        { error: 'safe_unavailable', message: 'The treasury Safe could not be read from the chain.' },
        503,
      ),
      json(summary),
    ])
    renderPage()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Could not load Safe information')
    expect(screen.getByText('The treasury Safe could not be read from the chain.')).toBeTruthy()
    expect(screen.queryByTestId('treasury-history')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }))
    expect((await screen.findByTestId('treasury-threshold')).textContent).toBe('2 of 3 signers')
    expect(screen.queryByText('Could not load Safe information')).toBeNull()
    expect(asked.filter((path) => path === '/api/treasury')).toHaveLength(2)
  })

  test('error: a server that cannot be reached shows the same words and its own sentence', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    renderPage()
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load Safe information')
    expect(screen.getByText(/^The Guildhall server could not be reached/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy()
  })

  test('behavior: the header names the Safe, its version, "2 of 3 signers" each linking their member page, the nonce, the block it was read at and its warnings', async () => {
    treasuryServer([json(summary)])
    renderPage()
    const safe = await screen.findByTestId('treasury-safe')
    expect(safe.querySelector('.treasury-safe-name')?.textContent).toBe('treasury.guildhall.eth')
    expect(safe.textContent).toMatch(/ 1\.5\.0$/)
    expect(screen.getByTestId('treasury-address').textContent?.replace(/\s/g, '')).toBe(SAFE)
    expect(screen.getByTestId('treasury-threshold').textContent).toBe('2 of 3 signers')
    expect(screen.getByTestId('treasury-nonce').textContent).toBe('4')
    expect(screen.getByTestId('treasury-block').textContent).toBe('as of block 1,234')
    const signers = within(screen.getByRole('list', { name: 'Signers' })).getAllByRole('link')
    expect(signers.map((link) => link.getAttribute('href'))).toEqual(
      [ada, ben, cleo].map((a) => `/members/${a}`),
    )
    await waitFor(() => expect(signers[0]?.textContent).toBe('ada.eth'))
    expect(within(screen.getByRole('list', { name: 'Warnings' })).getByRole('listitem').textContent).toBe(
      'A module is enabled: it can move funds without the signers.',
    )
    // The terms are explained where they appear.
    for (const term of ['Safe', 'Signers', 'Nonce'])
      expect(screen.getByRole('link', { name: term }).getAttribute('href')).toMatch(/^\/glossary#safe/)
  })

  test('behavior: the assets give each token’s balance, and a value only where the server has a price', async () => {
    treasuryServer([json(summary)])
    renderPage()
    const assets = await screen.findAllByTestId('treasury-asset')
    expect(assets.map((asset) => [...asset.children].map((cell) => cell.textContent))).toEqual([
      ['ETH', '1.5 ETH', '—'],
      ['GHD', '1,000 GHD', '2,000.00 USD'],
    ])
  })

  test('behavior: spending per category, in each token, with the proposals behind it; none is "No category", executions the app did not queue "Outside Guildhall"', async () => {
    treasuryServer([json(summary)])
    renderPage()
    const rows = await screen.findAllByTestId('treasury-spending-row')
    expect(rows.map((r) => [...r.children].map((cell) => cell.textContent))).toEqual([
      ['Security', '50 GHD', '1'],
      ['No category', '0.25 ETH', '2'],
      ['Outside Guildhall', '1 GHD', '0'],
    ])
  })

  test('behavior: the charts draw the balance over time and money in and out per month, each summed up in words', async () => {
    treasuryServer([json(summary)])
    renderPage()
    const balance = await screen.findByTestId('treasury-balance-chart')
    expect(within(balance).getByTestId('treasury-balance-chart-zero').textContent).toBe('0')
    expect(within(balance).getByTestId('treasury-balance-chart-top').textContent).toBe('2 ETH')
    expect(within(balance).getByRole('img').getAttribute('aria-labelledby')).toBe(
      within(balance).getByTestId('treasury-balance-chart-summary').id,
    )
    expect(within(balance).getByTestId('treasury-balance-chart-summary').textContent).toMatch(
      /: the balance went from 0 ETH to 1\.5 ETH; 3 days\.$/,
    )
    const flows = screen.getByTestId('treasury-flows-chart')
    expect(within(flows).getByTestId('treasury-flows-chart-summary').textContent).toBe(
      'From Sep 2026 to Oct 2026: 2 ETH came in and 0.5 ETH went out.',
    )
    expect(within(flows).getByRole('img').querySelectorAll('rect.chart-bar')).toHaveLength(4)
  })

  test('behavior: history rows link the proposal an execution carried out, say "executed outside Guildhall" for the others and "moved in ways this page cannot see" for the unexplained; "Show more history" adds the next page of the page size in the URL', async () => {
    const asked = treasuryServer([json(summary)])
    renderPage('/treasury?limit=4')
    const rows = await screen.findAllByTestId('treasury-row')
    expect(asked).toContain('/api/treasury/history?limit=4')
    expect(rows.map((r) => r.dataset.kind)).toEqual(['execution', 'execution', 'unexplained', 'outgoing'])
    const proposal = within(rows[0] as HTMLElement).getByRole('link', { name: 'Pay the auditors' })
    expect(proposal.getAttribute('href')).toBe(`/proposals/${PROPOSAL}`)
    expect(within(rows[1] as HTMLElement).getByTestId('treasury-row-outside').textContent).toBe(
      'executed outside Guildhall',
    )
    expect(rows[2]?.textContent).toContain('0.25 ETH moved in ways this page cannot see.')
    expect(rows[3]?.textContent).toContain('50 GHD')
    expect(
      within(rows[3] as HTMLElement)
        .getByRole('link')
        .getAttribute('href'),
    ).toBe(`/members/${dev}`)
    fireEvent.click(screen.getByRole('button', { name: 'Show more history' }))
    await waitFor(() => expect(screen.getAllByTestId('treasury-row')).toHaveLength(6))
    expect(screen.queryByRole('button', { name: 'Show more history' })).toBeNull()
    expect(asked).toContain('/api/treasury/history?limit=4&cursor=page-2')
  })

  test('behavior: the filters (direction, token, dates) go to the URL, the request and the CSV link alike; an address in a row’s sentence is shortened, in full on hover', async () => {
    const asked = treasuryServer([json(summary)])
    renderPage('/treasury?from=2026-09-01&to=2026-09-30')
    await screen.findAllByTestId('treasury-row')
    const from = Math.floor(new Date('2026-09-01T00:00:00').getTime() / 1000)
    const to = Math.floor(new Date('2026-09-30T00:00:00').getTime() / 1000) + 86_399
    expect(asked).toContain(`/api/treasury/history?from=${from}&to=${to}`)
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'settings' } })
    fireEvent.change(screen.getByLabelText('Token'), { target: { value: GHD } })
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe(
        `/treasury?from=2026-09-01&to=2026-09-30&direction=settings&token=${GHD}`,
      ),
    )
    const query = `direction=settings&token=${GHD}&from=${from}&to=${to}`
    await waitFor(() => expect(asked).toContain(`/api/treasury/history?${query}`))
    expect(screen.getByTestId('treasury-csv').getAttribute('href')).toBe(`/api/treasury/history.csv?${query}`)
    await waitFor(() =>
      expect(screen.getAllByTestId('treasury-row').map((r) => r.dataset.kind)).toEqual(['settings']),
    )
    // An address in the server's sentence is shortened, whole on its line, in full on hover.
    const address = within(screen.getByTestId('treasury-row')).getByTitle(cleo)
    expect(address.textContent).toBe(shortenAddress(cleo))
    expect(screen.getByTestId('treasury-row').textContent).toContain(`AddedOwner ${shortenAddress(cleo)}`)
  })
})
