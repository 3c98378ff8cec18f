// "Verify this thread" through the real component and the recount worker's own code: a local HTTP server
// stands in for the API and serves a thread bundle signed for real (two members' keys, two comments, a
// reaction); jsdom has no Worker, so a stand-in runs the worker's request handler in this thread. Every
// member is an externally owned account, so the recount never asks the RPC (nothing listens there).
import { publicConfigSchema } from '@guildhall/core'
import type { ThreadBundle } from '@guildhall/core/recount'
import { signedThreadBundle } from '@guildhall/devchain/thread-bundle'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { type Address, type Chain, type Hex, http } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createConfig, WagmiProvider } from 'wagmi'
import { injected } from 'wagmi/connectors'
import { toViemChain } from '../../lib/chains.ts'
import { PublicConfigProvider } from '../../lib/public-config-context.tsx'
import { type DroppingServer, startDroppingServer } from '../../test/dropping-server.ts'
import { type RecountMessage, type RecountRequest, runRecountRequest } from '../proposals/recount-request.ts'
import { VerifyThread } from './verify-thread.tsx'

const DEAD_RPC = 'http://127.0.0.1:1'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const CHAIN_ID = 31337
const THREAD = `0x${'ab'.repeat(32)}` as Hex

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: CHAIN_ID, name: 'Local chain', rpcUrl: DEAD_RPC, blockExplorerUrl: null }],
  token: { address: TOKEN, chainId: CHAIN_ID },
  wallets: ['injected'],
})
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [injected()],
  transports: { [CHAIN_ID]: http(DEAD_RPC) },
  storage: null,
})

/** The browser's Worker as the component uses it, running the worker's handler in this thread. */
class InProcessWorker extends EventTarget {
  static requests: RecountRequest[] = []
  private terminated = false
  postMessage(request: RecountRequest) {
    InProcessWorker.requests.push(request)
    void runRecountRequest(request, (data: RecountMessage) => {
      if (!this.terminated) this.dispatchEvent(new MessageEvent('message', { data }))
    })
  }
  terminate() {
    this.terminated = true
  }
}

let server: DroppingServer
/** What the server answers for the thread's bundle. */
let answer: () => { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }>

beforeEach(async () => {
  server = await startDroppingServer()
  server.answer(({ path }) =>
    path === `/api/threads/${THREAD}/bundle` ? answer() : { status: 404, body: { error: 'not_found' } },
  )
  InProcessWorker.requests = []
  vi.stubGlobal('Worker', InProcessWorker)
})

afterEach(async () => {
  cleanup()
  await server.close()
})

function Providers({ children }: { children: ReactNode }) {
  return (
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={new QueryClient()}>
        <PublicConfigProvider config={config}>
          <MemoryRouter>{children}</MemoryRouter>
        </PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>
  )
}

async function verify(bundle: ThreadBundle) {
  answer = () => ({ status: 200, body: bundle })
  render(
    <Providers>
      <VerifyThread threadId={THREAD} />
    </Providers>,
  )
  fireEvent.click(screen.getByRole('button', { name: 'Verify this thread' }))
}

describe('VerifyThread', () => {
  test('behavior: a clean thread verifies in the recount worker from its bundle: "Verified: 3 messages, all signed by authorised keys and in the log"', async () => {
    const { bundle } = await signedThreadBundle(THREAD)
    await verify(bundle)
    expect(
      await screen.findByText('Verified: 3 messages, all signed by authorised keys and in the log.'),
    ).toBeTruthy()
    expect(InProcessWorker.requests).toEqual([
      { kind: 'thread', bundleUrl: `/api/threads/${THREAD}/bundle`, rpcUrl: DEAD_RPC },
    ])
    expect(screen.getByRole('link', { name: 'Download the thread bundle' }).getAttribute('href')).toBe(
      `/api/threads/${THREAD}/bundle`,
    )
  })

  test('behavior: an altered comment is shown as each problem the recount found', async () => {
    const { bundle, ids } = await signedThreadBundle(THREAD)
    const reply = bundle.messages[1]
    if (reply?.kind !== 'comment') throw new Error('not built')
    reply.message.body = 'Never.'
    await verify(bundle)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('The thread differs from its signed messages:')
    expect([...alert.querySelectorAll('li')].map((item) => item.textContent)).toEqual([
      `Comment ${ids.reply.slice(0, 10)}… was altered: its text does not match its signature.`,
      `Comment ${ids.reply.slice(0, 10)}… is published, but no valid signed message in the log makes it.`,
    ])
  })

  test('behavior: a takedown is shown as the operator’s, with its reason, and the thread still verifies', async () => {
    const { bundle, ids } = await signedThreadBundle(THREAD)
    const reply = bundle.messages[1]
    if (reply?.kind !== 'comment') throw new Error('not built')
    bundle.messages[1] = {
      ...reply,
      message: { ...reply.message, body: null },
      takenDown: { reason: 'Court order', at: 1 },
    }
    await verify(bundle)
    expect(
      await screen.findByText('Verified: 3 messages, all signed by authorised keys and in the log.'),
    ).toBeTruthy()
    expect(
      screen.getByText(`Comment ${ids.reply.slice(0, 10)}… was taken down by the operator: Court order.`),
    ).toBeTruthy()
  })

  test('behavior: while the bundle loads the button waits and says so; a bundle that cannot be loaded is said so', async () => {
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    answer = async () => {
      await held
      return { status: 404, body: { error: 'unknown_thread' } }
    }
    render(
      <Providers>
        <VerifyThread threadId={THREAD} />
      </Providers>,
    )
    const button = screen.getByRole('button', { name: 'Verify this thread' }) as HTMLButtonElement
    fireEvent.click(button)
    expect((await screen.findByRole('status')).textContent).toBe(
      "Checking every message's signature, key and log entry…",
    )
    expect(button.disabled).toBe(true)
    release()
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The recount could not run: The thread bundle could not be loaded (404).',
    )
    expect(button.disabled).toBe(false)
  })
})
