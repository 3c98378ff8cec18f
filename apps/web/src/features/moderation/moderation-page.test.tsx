import { type ModerationActionListItem, moderationActionListSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import type { Address } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ModerationPage } from './moderation-page.tsx'

const [, , cleo] = anvilAccounts.map((account) => account.address as Address)
if (!cleo) throw new Error('anvil accounts missing')
const PROPOSAL = `0x${'ab'.repeat(32)}` as const
const TOPIC = `0x${'cd'.repeat(32)}` as const
const COMMENT = `0x${'ef'.repeat(32)}` as const
const OTHER = `0x${'12'.repeat(32)}` as const

const action = (
  item: Partial<ModerationActionListItem> & Pick<ModerationActionListItem, 'kind' | 'logSeq'>,
) => ({
  id: `0x${item.logSeq.toString(16).padStart(64, '0')}`,
  moderator: cleo,
  target: COMMENT,
  thread: PROPOSAL,
  threadKind: 'proposal',
  threadTitle: 'Fund the audit',
  reason: 'spam',
  at: 1_790_000_000,
  ...item,
})

const firstPage = moderationActionListSchema.parse({
  items: [
    action({ kind: 'takedown', logSeq: 40, moderator: null, target: OTHER, reason: 'court order 12/26' }),
    action({ kind: 'auto-hide', logSeq: 39, moderator: null, reason: 'Flagged by 3 members' }),
    action({
      kind: 'lock',
      logSeq: 38,
      target: TOPIC,
      thread: TOPIC,
      threadKind: 'topic',
      threadTitle: 'Ideas for Q1',
      reason: 'heated',
    }),
    action({ kind: 'hide', logSeq: 37 }),
  ],
  next: 'page-2',
})
const secondPage = moderationActionListSchema.parse({
  items: [action({ kind: 'unhide', logSeq: 12, reason: 'not spam after all' })],
  next: null,
})

/** Stands in for GET /api/moderation (two pages) and the names (Cleo is cleo.eth); records every path asked. */
function moderationServer(log: 'pages' | 'empty' | 'down') {
  const asked: string[] = []
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://app')
    asked.push(`${url.pathname}${url.search}`)
    const [status, body] = ((): [number, unknown] => {
      if (url.pathname === '/api/moderation') {
        if (log === 'down')
          return [503, { error: 'database_unavailable', message: 'The database is unavailable.' }]
        if (log === 'empty') return [200, { items: [], next: null }]
        return [200, url.searchParams.get('cursor') === 'page-2' ? secondPage : firstPage]
      }
      if (url.pathname === '/api/names') {
        const addresses = url.searchParams.get('addresses')?.split(',') ?? []
        return [
          200,
          {
            names: addresses.map((address) => ({
              address,
              name: address === cleo ? 'cleo.eth' : null,
              avatarUrl: null,
              pending: false,
            })),
          },
        ]
      }
      return [404, { error: 'not_found', message: 'Not found.' }]
    })()
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  })
  return asked
}

function renderPage() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={['/moderation']}>
        <ModerationPage />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('ModerationPage: the public moderation log', () => {
  test('behavior: each action says who, what, where (a link to the comment or thread), why and when; hides by flags and takedowns are named as such', async () => {
    const asked = moderationServer('pages')
    renderPage()
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Moderation')
    const rows = await screen.findAllByTestId('moderation-action')
    expect(rows).toHaveLength(4)
    const [takedown, byFlags, lock, hide] = rows as [HTMLElement, HTMLElement, HTMLElement, HTMLElement]

    expect(takedown.textContent).toContain('Removed by the operator')
    expect(takedown.textContent).toContain('Reason: court order 12/26')
    expect(
      within(takedown).getByRole('link', { name: 'A comment in “Fund the audit”' }).getAttribute('href'),
    ).toBe(`/proposals/${PROPOSAL}#comment-${OTHER}`)

    expect(byFlags.textContent).toContain('Hidden by flags')
    expect(byFlags.textContent).toContain('Reason: Flagged by 3 members')
    expect(within(byFlags).queryByTestId('member-name')).toBeNull()

    expect(await within(lock).findByText('cleo.eth')).toBeTruthy()
    expect(lock.textContent).toContain('locked a thread')
    expect(within(lock).getByRole('link', { name: 'The topic in “Ideas for Q1”' }).getAttribute('href')).toBe(
      `/discussions/${TOPIC}#discussion`,
    )
    expect(lock.textContent).toContain('log entry 38')

    expect(hide.textContent).toContain('hid a comment')
    expect(
      within(hide).getByRole('link', { name: 'A comment in “Fund the audit”' }).getAttribute('href'),
    ).toBe(`/proposals/${PROPOSAL}#comment-${COMMENT}`)
    expect(
      within(hide)
        .getByRole('link', { name: /cleo\.eth/ })
        .getAttribute('href'),
    ).toBe(`/members/${cleo}`)
    expect(hide.querySelector('time')?.getAttribute('dateTime')).toBe(
      new Date(1_790_000_000_000).toISOString(),
    )
    expect(asked).toContain('/api/moderation?limit=25')
  })

  test('behavior: "Show more actions" asks the next page and adds it below; none after the last page', async () => {
    const asked = moderationServer('pages')
    renderPage()
    await screen.findAllByTestId('moderation-action')
    fireEvent.click(screen.getByRole('button', { name: 'Show more actions' }))
    expect(await screen.findByText(/showed a comment again/)).toBeTruthy()
    expect(screen.getAllByTestId('moderation-action')).toHaveLength(5)
    expect(asked).toContain('/api/moderation?limit=25&cursor=page-2')
    expect(screen.queryByRole('button', { name: 'Show more actions' })).toBeNull()
  })

  test('behavior: with no actions yet the page says so', async () => {
    moderationServer('empty')
    renderPage()
    expect(await screen.findByText('No moderation actions yet.')).toBeTruthy()
  })

  test('behavior: a log the server cannot read is an alert with its sentence', async () => {
    moderationServer('down')
    renderPage()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The moderation log could not be loaded. The database is unavailable.',
    )
  })
})
