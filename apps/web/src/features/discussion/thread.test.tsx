// The thread component's states and its key-signed writing, through the real component: a local HTTP
// server stands in for the API (GET /api/threads/:id and its items, the names) and records what the page
// sends; the development wallet (anvil's public keys) is the member's wallet, so the key's authorisation
// and each comment's signature are real and checked here as the server checks them. jsdom has no
// EventSource: a small one stands in for the browser's, so the test can send the thread's live events.
import {
  type CommentJson,
  commentTypedData,
  DISCUSSION_LIMITS,
  discussionKeyTypedData,
  discussionSigner,
  governanceDomain,
  publicConfigSchema,
  type ThreadItem,
  type ThreadJson,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/browser'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { type Address, type Chain, type Hex, http, verifyTypedData, zeroHash } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createConfig, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { injected } from 'wagmi/connectors'
import { toViemChain } from '../../lib/chains.ts'
import { createDevWalletProvider } from '../../lib/dev-wallet.ts'
import { PublicConfigProvider } from '../../lib/public-config-context.tsx'
import { type DroppingServer, startDroppingServer } from '../../test/dropping-server.ts'
import { COMMENT_LIMITS } from './composer.tsx'
import { Thread } from './thread.tsx'

const DEAD_RPC = 'http://127.0.0.1:1'
const ADA = anvilAccounts[1]?.address as Address
const BEN = anvilAccounts[2]?.address as Address
const CLEO = anvilAccounts[3]?.address as Address
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const CHAIN_ID = 31337
const THREAD = `0x${'ab'.repeat(32)}` as Hex
const domain = governanceDomain({ chainId: CHAIN_ID, token: TOKEN })
const NAMES: Record<string, string> = { [ADA]: 'ada.eth', [BEN]: 'ben.eth', [CLEO]: 'cleo.eth' }

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: CHAIN_ID, name: 'Local chain', rpcUrl: DEAD_RPC, blockExplorerUrl: null }],
  token: { address: TOKEN, chainId: CHAIN_ID },
  wallets: ['injected'],
})

// The member's wallet, counting the signatures it is asked for.
let walletSignatures = 0
const devWallet = createDevWalletProvider({
  accounts: [{ address: ADA, label: 'Ada' }],
  chains: config.chains,
})
const wallet = new Proxy(devWallet, {
  get(target, property, receiver) {
    if (property !== 'request') return Reflect.get(target, property, receiver)
    return (args: { method: string }) => {
      if (args.method.startsWith('eth_signTypedData')) walletSignatures++
      return target.request(args as never)
    }
  },
})
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [
    injected({
      target: () => ({ id: 'development', name: 'Development wallet', provider: wallet as never }),
    }),
  ],
  transports: { [CHAIN_ID]: http(DEAD_RPC) },
  storage: null,
})

/** The browser's EventSource, as far as the live hook uses it. */
class FakeEventSource {
  static opened: FakeEventSource[] = []
  onopen: (() => void) | null = null
  onerror: (() => void) | null = null
  private listeners = new Map<string, ((event: MessageEvent<string>) => void)[]>()
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }
  close() {}
  send(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? [])
      listener(new MessageEvent(type, { data: JSON.stringify(data) }))
  }
}

const comment = (overrides: Partial<CommentJson> & Pick<CommentJson, 'id' | 'logSeq'>): CommentJson => ({
  thread: THREAD,
  parent: null,
  depth: 0,
  author: BEN,
  body: 'A comment.',
  mentions: [],
  createdAt: 1_900_000_000,
  editedAt: null,
  versions: 1,
  versionId: overrides.id,
  withdrawn: false,
  hidden: null,
  takenDown: null,
  reactions: [],
  flags: 0,
  ...overrides,
})
const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex

const header: ThreadJson = {
  id: THREAD,
  kind: 'proposal',
  proposal: { id: THREAD, title: 'Fund the audit' },
  topic: null,
  locked: null,
  commentCount: 0,
  lastSeenSeq: null,
  mayPost: true,
  mayPostReason: null,
}

let server: DroppingServer
let queryClient: QueryClient
let threadAnswer: ThreadJson
let items: ThreadItem[]
/** The key-signed messages the page sent, besides keys and new comments. */
let posts: { path: string; signed: { message: Record<string, unknown>; signature: Hex } }[]

beforeEach(async () => {
  localStorage.clear()
  walletSignatures = 0
  FakeEventSource.opened = []
  vi.stubGlobal('EventSource', FakeEventSource)
  server = await startDroppingServer()
  queryClient = new QueryClient()
  threadAnswer = header
  items = []
  posts = []
  server.answer(({ method, path, body }) => {
    const url = new URL(path, 'http://api')
    if (url.pathname === '/api/names') {
      const addresses = url.searchParams.get('addresses')?.split(',') ?? []
      const names = addresses.map((address) => ({
        address,
        name: NAMES[address] ?? null,
        avatarUrl: null,
        pending: false,
      }))
      return { status: 200, body: { names } }
    }
    if (url.pathname === '/api/names/resolve') {
      const name = url.searchParams.get('name')
      const address = Object.keys(NAMES).find((key) => NAMES[key] === name)
      return address
        ? { status: 200, body: { name, address } }
        : { status: 404, body: { error: 'unknown_name', message: `${name} has no address.` } }
    }
    if (url.pathname === `/api/threads/${THREAD}`) return { status: 200, body: threadAnswer }
    if (url.pathname === `/api/threads/${THREAD}/items`) return { status: 200, body: { items, next: null } }
    if (url.pathname === `/api/threads/${THREAD}/seen`) return { status: 204 }
    if (method === 'POST' && url.pathname === '/api/discussion/keys') {
      const { message } = JSON.parse(body)
      return {
        status: 201,
        body: {
          key: {
            key: message.key,
            member: message.member,
            scopes: message.scopes,
            expires: message.expires,
            createdAt: message.timestamp,
            revokedAt: null,
            logSeq: 1,
          },
        },
      }
    }
    if (method === 'POST' && url.pathname === '/api/comments') {
      const { message } = JSON.parse(body)
      const stored = comment({
        id: id(100 + items.length),
        logSeq: 100 + items.length,
        author: message.author,
        body: message.body,
        mentions: message.mentions,
      })
      items = [...items, { type: 'comment', comment: stored }]
      return { status: 201, body: { comment: stored } }
    }
    if (method === 'POST') {
      posts.push({ path: url.pathname, signed: JSON.parse(body) })
      const target = items.find((item) => item.type === 'comment') as
        | Extract<ThreadItem, { type: 'comment' }>
        | undefined
      if (url.pathname === '/api/moderation') {
        const { message } = JSON.parse(body)
        return {
          status: 201,
          body: {
            action: {
              id: id(900),
              moderator: message.moderator,
              kind: message.action,
              target: message.target,
              thread: THREAD,
              reason: message.reason,
              at: message.timestamp,
              logSeq: 900,
            },
          },
        }
      }
      if (target) return { status: 200, body: { comment: target.comment } }
    }
    if (url.pathname.endsWith('/versions'))
      return {
        status: 200,
        body: {
          items: [
            { versionId: id(1), body: 'Frist.', mentions: [], timestamp: 1_900_000_000, logSeq: 1 },
            { versionId: id(11), body: 'First.', mentions: [], timestamp: 1_900_000_100, logSeq: 11 },
          ],
        },
      }
    return { status: 404, body: { error: 'not_found', message: 'Not here.' } }
  })
})
afterEach(async () => {
  vi.restoreAllMocks()
  await disconnect(wagmiConfig)
  await server.close()
  queryClient.clear()
})

function renderThread(publicConfig = config, path = '/') {
  return render(
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <PublicConfigProvider config={publicConfig}>
          <MemoryRouter initialEntries={[path]}>
            <Thread threadId={THREAD} />
          </MemoryRouter>
        </PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>,
  )
}

async function connectAda() {
  const connector = wagmiConfig.connectors[0]
  if (!connector) throw new Error('the wallet connector is missing')
  await connect(wagmiConfig, { connector, chainId: CHAIN_ID })
}

const shownComments = () => within(screen.getByRole('list', { name: 'Comments' })).getAllByRole('listitem')

describe('a thread shows each item as it stands', () => {
  test('behavior: tree order with replies indented by depth; withdrawn, hidden (collapsed, “show”), taken down; vote cards and a re-vote; a mention links the member page of the signed address', async () => {
    items = [
      {
        type: 'comment',
        comment: comment({ id: id(1), logSeq: 1, body: 'Thanks @ada.eth for this.', mentions: [CLEO] }),
      },
      {
        type: 'comment',
        comment: comment({ id: id(2), logSeq: 2, parent: id(1), depth: 1, author: ADA, body: 'A reply.' }),
      },
      {
        type: 'comment',
        comment: comment({ id: id(3), logSeq: 3, parent: id(2), depth: 2, withdrawn: true, body: null }),
      },
      {
        type: 'comment',
        comment: comment({
          id: id(4),
          logSeq: 4,
          body: 'Buy my token',
          hidden: { by: CLEO, reason: 'spam', at: 1_900_000_100, logSeq: 9 },
        }),
      },
      {
        type: 'comment',
        comment: comment({
          id: id(5),
          logSeq: 5,
          body: null,
          takenDown: { reason: 'a court order', at: 1_900_000_200 },
        }),
      },
      {
        type: 'vote',
        vote: {
          voteId: id(6),
          voter: ADA,
          choice: 'For',
          power: '1000000000000000000000',
          reason: 'Worth it.',
          castAt: 1_900_000_300,
          logSeq: 6,
          revote: false,
        },
      },
      {
        type: 'vote',
        vote: {
          voteId: id(7),
          voter: BEN,
          choice: 'Against',
          power: '5',
          reason: 'Too dear.',
          castAt: 1_900_000_400,
          logSeq: 7,
          revote: true,
        },
      },
    ]
    renderThread()
    await waitFor(() => expect(shownComments()).toHaveLength(7))
    const rows = shownComments()
    expect(rows.map((row) => row.className)).toEqual([
      'thread-item depth-0',
      'thread-item depth-1',
      'thread-item depth-2',
      'thread-item depth-0',
      'thread-item depth-0',
      'thread-item depth-0',
      'thread-item depth-0',
    ])
    // The mention links the address signed with the comment (Cleo's), whatever the name written says.
    const mention = await within(rows[0] as HTMLElement).findByRole('link', { name: '@ada.eth' })
    expect(mention.getAttribute('href')).toBe(`/members/${CLEO}`)
    expect(rows[2]?.textContent).toContain('Withdrawn by the author')
    await waitFor(() => expect(rows[3]?.textContent).toContain('Hidden by cleo.eth: spam · show'))
    expect(rows[3]?.textContent).not.toContain('Buy my token')
    fireEvent.click(within(rows[3] as HTMLElement).getByRole('button', { name: 'show' }))
    expect(await within(rows[3] as HTMLElement).findByText('Buy my token')).toBeTruthy()
    expect(rows[4]?.textContent).toContain('Removed by the operator: a court order')
    await waitFor(() => expect(rows[5]?.textContent).toMatch(/^ada\.eth voted For · /))
    expect(rows[5]?.textContent).toContain('Worth it.')
    expect(
      within(rows[5] as HTMLElement)
        .getByRole('link', { name: 'The signed vote' })
        .getAttribute('href'),
    ).toBe('/api/governance/log?after=5')
    await waitFor(() => expect(rows[6]?.textContent).toMatch(/^ben\.eth changed their vote to Against · /))
  })

  test('behavior: signed out, the thread reads but asks to sign in to comment; a locked thread says by whom and why', async () => {
    threadAnswer = { ...header, locked: { by: CLEO, reason: 'Heated', at: 1_900_000_000, logSeq: 3 } }
    renderThread()
    expect(await screen.findByText(/^Sign in to comment\./)).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole('note').textContent).toBe(
        'Locked by cleo.eth: Heated. No new comments, replies or reactions.',
      ),
    )
    expect(screen.queryByRole('textbox')).toBeNull()
  })

  test('behavior: a proposal’s thread names the topic it grew from; a topic’s own thread does not name itself', async () => {
    const topic = { id: id(77), title: 'A community garden' }
    threadAnswer = { ...header, topic }
    const first = renderThread()
    expect(await screen.findByText('A community garden')).toBeTruthy()
    first.unmount()
    queryClient.clear()
    threadAnswer = { ...header, kind: 'topic', proposal: null, topic, commentCount: 2 }
    renderThread()
    // The thread's answer is in once its count shows.
    expect(await screen.findByRole('heading', { name: 'Discussion (2)' })).toBeTruthy()
    expect(screen.queryByText(/Discussed first in the topic/)).toBeNull()
  })

  test('behavior: a member the posting policy refuses reads its reason, and gets no form', async () => {
    threadAnswer = {
      ...header,
      mayPost: false,
      mayPostReason: 'Only members with voting power or tokens may post.',
    }
    await connectAda()
    renderThread()
    expect(await screen.findByText('Only members with voting power or tokens may post.')).toBeTruthy()
    expect(screen.queryByRole('textbox')).toBeNull()
  })

  test('behavior: comments since the member’s last visit are marked “New” (not their own), and the visit is recorded up to the newest entry shown', async () => {
    threadAnswer = { ...header, lastSeenSeq: 2 }
    items = [
      { type: 'comment', comment: comment({ id: id(1), logSeq: 1 }) },
      { type: 'comment', comment: comment({ id: id(2), logSeq: 3 }) },
      { type: 'comment', comment: comment({ id: id(3), logSeq: 4, author: ADA }) },
    ]
    await connectAda()
    renderThread()
    await waitFor(() => expect(shownComments()).toHaveLength(3))
    expect(shownComments().map((row) => row.querySelector('.new-mark')?.textContent ?? '')).toEqual([
      '',
      'New',
      '',
    ])
    await waitFor(() =>
      expect(server.received.find((request) => request.path.endsWith('/seen'))?.body).toBe('{"seq":4}'),
    )
  })
})

test('behavior: a long thread comes a page at a time: “Show more comments” appends the next page after the cursor the server gave', async () => {
  const first = [comment({ id: id(1), logSeq: 1, body: 'Page one.' })]
  const second = [comment({ id: id(2), logSeq: 2, body: 'Page two.' })]
  server.answer(({ path }) => {
    const url = new URL(path, 'http://api')
    if (url.pathname === `/api/threads/${THREAD}`) return { status: 200, body: header }
    if (url.pathname === `/api/threads/${THREAD}/items`)
      return url.searchParams.get('cursor') === 'after-1'
        ? { status: 200, body: { items: second.map((c) => ({ type: 'comment', comment: c })), next: null } }
        : {
            status: 200,
            body: { items: first.map((c) => ({ type: 'comment', comment: c })), next: 'after-1' },
          }
    if (url.pathname === '/api/names') return { status: 200, body: { names: [] } }
    return { status: 404, body: { error: 'not_found', message: 'Not here.' } }
  })
  renderThread()
  await waitFor(() => expect(shownComments()).toHaveLength(1))
  fireEvent.click(screen.getByRole('button', { name: 'Show more comments' }))
  await waitFor(() => expect(shownComments()).toHaveLength(2))
  expect(shownComments().map((row) => row.querySelector('.markdown')?.textContent?.trim())).toEqual([
    'Page one.',
    'Page two.',
  ])
  expect(screen.queryByRole('button', { name: 'Show more comments' })).toBeNull()
})

test('behavior: a link to one comment (#comment-<id>, as the moderation log gives) brings that comment into view once the thread has loaded', async () => {
  items = [
    { type: 'comment', comment: comment({ id: id(1), logSeq: 1 }) },
    { type: 'comment', comment: comment({ id: id(2), logSeq: 2, body: 'The one linked.' }) },
  ]
  const scrolled: string[] = []
  // jsdom lays nothing out and has no scrollIntoView: this one records what would be scrolled to.
  Object.defineProperty(Element.prototype, 'scrollIntoView', {
    configurable: true,
    value(this: Element) {
      scrolled.push(this.id)
    },
  })
  try {
    renderThread(config, `/discussions/${THREAD}#comment-${id(2)}`)
    await waitFor(() => expect(scrolled).toEqual([`comment-${id(2)}`]))
    expect(document.getElementById(`comment-${id(2)}`)?.textContent).toContain('The one linked.')
  } finally {
    delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView
  }
})

describe('writing in a thread', () => {
  test('behavior: the form states the limits; the first comment asks the wallet once to authorise a browser key (saying what it allows and for how long), every later one is signed by that key with no wallet prompt', async () => {
    await connectAda()
    renderThread()
    const box = await screen.findByLabelText('Add a comment')
    expect(screen.getByText(new RegExp(`^${COMMENT_LIMITS}`))).toBeTruthy()
    expect(COMMENT_LIMITS).toBe('Up to 10,000 characters · replies nest 3 deep')
    expect(
      screen.getByText(
        'Your wallet will ask once: Let this browser sign your comments, reactions and flags for 30 days. Proposals, votes and delegation still ask your wallet.',
      ),
    ).toBeTruthy()
    for (const text of ['First, @ben.eth.', 'Second.', 'Third.']) {
      fireEvent.change(box, { target: { value: text } })
      fireEvent.click(screen.getByRole('button', { name: 'Comment' }))
      await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''))
    }
    expect(walletSignatures).toBe(1)
    const keyPosts = server.received.filter((request) => request.path === '/api/discussion/keys')
    expect(keyPosts).toHaveLength(1)
    const authorisation = JSON.parse(keyPosts[0]?.body ?? '')
    expect(authorisation.message.member).toBe(ADA)
    expect(authorisation.message.scopes).toEqual(['comment', 'react', 'flag', 'moderate'])
    expect(authorisation.message.expires - authorisation.message.timestamp).toBe(
      DISCUSSION_LIMITS.keyLifetimeMaxSeconds,
    )
    expect(
      await verifyTypedData({
        ...discussionKeyTypedData(domain, authorisation.message),
        address: ADA,
        signature: authorisation.signature,
      }),
    ).toBe(true)
    const posted = server.received
      .filter((request) => request.path === '/api/comments')
      .map((request) => JSON.parse(request.body))
    expect(posted.map((signed) => signed.message.body)).toEqual(['First, @ben.eth.', 'Second.', 'Third.'])
    expect(posted[0].message.mentions).toEqual([BEN])
    for (const signed of posted) {
      expect(signed.message).toMatchObject({
        author: ADA,
        thread: THREAD,
        parent: zeroHash,
        replaces: zeroHash,
      })
      expect(discussionSigner(domain, 'comment', signed.message, signed.signature)).toBe(
        authorisation.message.key,
      )
      // The digest the server stores is the one of what was signed.
      expect(commentTypedData(domain, signed.message).primaryType).toBe('Comment')
    }
    expect(screen.queryByText(/^Your wallet will ask once/)).toBeNull()
  })

  test('behavior: the wallet refusing the key’s authorisation reads as every refused signature does, and nothing is sent', async () => {
    await connectAda()
    const request = devWallet.request.bind(devWallet)
    vi.spyOn(devWallet, 'request').mockImplementation(async (args) => {
      if ((args as { method: string }).method.startsWith('eth_signTypedData'))
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      return request(args as never)
    })
    renderThread()
    fireEvent.change(await screen.findByLabelText('Add a comment'), { target: { value: 'Hello' } })
    fireEvent.click(screen.getByRole('button', { name: 'Comment' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^You cancelled the signature/)
    expect(server.received.some((r) => r.path === '/api/discussion/keys' || r.path === '/api/comments')).toBe(
      false,
    )
  })

  test('behavior: a live event reads the loaded pages again, several at once in one read', async () => {
    renderThread()
    await screen.findByText('No comments yet.')
    const reads = () =>
      server.received.filter((request) => request.path.startsWith(`/api/threads/${THREAD}/items`)).length
    const before = reads()
    items = [{ type: 'comment', comment: comment({ id: id(1), logSeq: 1, body: 'Arrived live.' }) }]
    const source = FakeEventSource.opened.find((opened) => opened.url === `/api/threads/${THREAD}/events`)
    if (!source) throw new Error('the thread’s stream is not open')
    for (let seq = 1; seq <= 5; seq++) source.send('thread', { threadId: THREAD, seq, kind: 'comment' })
    expect(await screen.findByText('Arrived live.')).toBeTruthy()
    expect(reads() - before).toBe(1)
  })

  test('behavior: the author edits (a new version replacing the latest, “edited” opens every version), reacts (a toggle) and withdraws, each signed by the key', async () => {
    items = [
      {
        type: 'comment',
        comment: comment({
          id: id(1),
          logSeq: 1,
          author: ADA,
          body: 'First.',
          versions: 2,
          versionId: id(11),
        }),
      },
    ]
    await connectAda()
    renderThread()
    const row = await screen.findByRole('article', { name: `Comment by ${ADA}` })
    fireEvent.click(within(row).getByRole('button', { name: 'edited' }))
    const versions = await within(row).findByRole('list', { name: 'Versions' })
    await waitFor(() =>
      expect(
        within(versions)
          .getAllByRole('listitem')
          .map((version) => version.querySelector('.markdown')?.textContent?.trim()),
      ).toEqual(['Frist.', 'First.']),
    )
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }))
    const box = within(row).getByLabelText('Edit your comment')
    expect((box as HTMLTextAreaElement).value).toBe('First.')
    fireEvent.change(box, { target: { value: 'First, corrected.' } })
    fireEvent.click(within(row).getByRole('button', { name: 'Save the new version' }))
    await waitFor(() =>
      expect(within(row).queryByLabelText('Edit your comment'), row.textContent ?? '').toBeNull(),
    )
    fireEvent.click(within(row).getByRole('button', { name: 'Thumbs up: 0' }))
    await waitFor(() => expect(posts.some((post) => post.path === '/api/reactions')).toBe(true))
    fireEvent.click(within(row).getByRole('button', { name: 'Withdraw' }))
    await waitFor(() => expect(posts.some((post) => post.path === '/api/comments/withdraw')).toBe(true))

    const key = JSON.parse(
      server.received.find((request) => request.path === '/api/discussion/keys')?.body ?? '',
    ).message.key
    const edit = server.received.find((request) => request.path === '/api/comments')
    const signedEdit = JSON.parse(edit?.body ?? '')
    expect(signedEdit.message).toMatchObject({
      body: 'First, corrected.',
      replaces: id(11),
      parent: zeroHash,
    })
    expect(discussionSigner(domain, 'comment', signedEdit.message, signedEdit.signature)).toBe(key)
    const reaction = posts.find((post) => post.path === '/api/reactions')
    expect(reaction?.signed.message).toMatchObject({
      author: ADA,
      target: id(1),
      reaction: 'thumbs-up',
      on: true,
    })
    expect(
      discussionSigner(
        domain,
        'reaction',
        reaction?.signed.message as never,
        reaction?.signed.signature as Hex,
      ),
    ).toBe(key)
    const withdrawal = posts.find((post) => post.path === '/api/comments/withdraw')
    expect(withdrawal?.signed.message).toMatchObject({ author: ADA, comment: id(1) })
    expect(
      discussionSigner(
        domain,
        'withdrawal',
        withdrawal?.signed.message as never,
        withdrawal?.signed.signature as Hex,
      ),
    ).toBe(key)
    expect(walletSignatures).toBe(1)
  })

  test('behavior: the comment menu offers a member Flag, and a moderator (named in the public config) Hide and Lock thread, each with a reason, signed by the key', async () => {
    items = [{ type: 'comment', comment: comment({ id: id(1), logSeq: 1, body: 'Buy my token' }) }]
    await connectAda()
    renderThread()
    const row = await screen.findByRole('article', { name: `Comment by ${BEN}` })
    fireEvent.click(within(row).getByText('⋯'))
    expect(
      within(row)
        .getAllByRole('button', { name: /^(Flag|Hide|Unhide|Lock thread)$/ })
        .map((b) => b.textContent),
    ).toEqual(['Flag'])
    fireEvent.click(within(row).getByRole('button', { name: 'Flag' }))
    fireEvent.change(within(row).getByLabelText('Why should the moderators look at it?'), {
      target: { value: 'spam' },
    })
    fireEvent.click(within(row).getAllByRole('button', { name: 'Flag' }).at(-1) as HTMLElement)
    await waitFor(() => expect(posts.some((post) => post.path === '/api/flags')).toBe(true))
    expect(posts.find((post) => post.path === '/api/flags')?.signed.message).toMatchObject({
      author: ADA,
      comment: id(1),
      reason: 'spam',
    })

    const moderated = publicConfigSchema.parse({
      ...config,
      discussion: { ...config.discussion, moderators: [ADA] },
    })
    cleanup()
    renderThread(moderated)
    const again = await screen.findByRole('article', { name: `Comment by ${BEN}` })
    fireEvent.click(within(again).getByText('⋯'))
    expect(
      within(again)
        .getAllByRole('button', { name: /^(Flag|Hide|Unhide|Lock thread)$/ })
        .map((b) => b.textContent),
    ).toEqual(['Flag', 'Hide', 'Lock thread'])
    fireEvent.click(within(again).getByRole('button', { name: 'Hide' }))
    fireEvent.change(within(again).getByLabelText('Why is it hidden? (shown to everyone)'), {
      target: { value: 'spam' },
    })
    fireEvent.click(within(again).getAllByRole('button', { name: 'Hide' }).at(-1) as HTMLElement)
    await waitFor(() => expect(posts.some((post) => post.path === '/api/moderation')).toBe(true))
    const hide = posts.find((post) => post.path === '/api/moderation')
    expect(hide?.signed.message).toMatchObject({
      moderator: ADA,
      target: id(1),
      action: 'hide',
      reason: 'spam',
    })
    expect(walletSignatures).toBe(1)
  })
})
