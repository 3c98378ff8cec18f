// The signed actions' one status, through the real hooks of a vote and a statement: the development wallet
// signs in the page with anvil's public keys (a real signature, checked here as the server checks it),
// and a local HTTP server stands in for the API, holding its answer until the test lets it go.
import {
  delegateStatementTypedData,
  governanceDomain,
  publicConfigSchema,
  signedDelegateStatementSchema,
  signedVoteSchema,
  voteTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/browser'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { type Address, type Chain, verifyTypedData } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createConfig, http, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { injected } from 'wagmi/connectors'
import { useDelegateStatement, usePublishStatement } from '../features/members/queries/delegate-statement.ts'
import { useCastVote } from '../features/proposals/queries/cast-vote.ts'
import { proposalKeys } from '../features/proposals/queries/keys.ts'
import { type DroppingServer, startDroppingServer } from '../test/dropping-server.ts'
import { toViemChain } from './chains.ts'
import { createDevWalletProvider } from './dev-wallet.ts'
import { PublicConfigProvider } from './public-config-context.tsx'
import type { SignedActionStatus } from './signed-action.ts'

// Nothing listens on port 1: the wallet answers everything these tests ask itself.
const DEAD_RPC = 'http://127.0.0.1:1'
const ADA = anvilAccounts[1]?.address as Address
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const PROPOSAL = `0x${'ab'.repeat(32)}` as const
const VOTE_ID = `0x${'cd'.repeat(32)}`
const domain = governanceDomain({ chainId: 31337, token: TOKEN })

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: 31337, name: 'Local chain', rpcUrl: DEAD_RPC }],
  token: { address: TOKEN, chainId: 31337 },
  wallets: ['injected'],
})
const wallet = createDevWalletProvider({
  accounts: [{ address: ADA, label: 'Ada' }],
  chains: config.chains,
})
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [
    injected({
      target: () => ({ id: 'development', name: 'Development wallet', provider: wallet as never }),
    }),
  ],
  transports: { 31337: http(DEAD_RPC) },
  storage: null,
})

let server: DroppingServer
let queryClient: QueryClient
beforeEach(async () => {
  server = await startDroppingServer()
  queryClient = new QueryClient()
  const connector = wagmiConfig.connectors[0]
  if (!connector) throw new Error('the wallet connector is missing')
  await connect(wagmiConfig, { connector, chainId: 31337 })
})
afterEach(async () => {
  await disconnect(wagmiConfig)
  await server.close()
  queryClient.clear()
})

function Providers({ children }: { children: ReactNode }) {
  return (
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <PublicConfigProvider config={config}>{children}</PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>
  )
}

/** A hook's result, with every status it rendered, in order, repeats of one step counted once. */
function renderAction<T extends { status: SignedActionStatus }>(useAction: () => T) {
  const seen: SignedActionStatus[] = []
  const rendered = renderHook(
    () => {
      const action = useAction()
      if (seen.at(-1)?.step !== action.status.step) seen.push(action.status)
      return action
    },
    { wrapper: Providers },
  )
  return { ...rendered, seen }
}

/** An answer the test gives when it says so. */
function heldAnswer() {
  let give: (answer: { status: number; body?: unknown }) => void = () => {}
  const answer = new Promise<{ status: number; body?: unknown }>((resolve) => {
    give = resolve
  })
  return { answer, give }
}

const vote = { voter: ADA, proposal: PROPOSAL, choices: [1], reason: 'Yes.', timestamp: 1_900_000_000 }

describe('useSignedAction: sign, submit, read again, one status', () => {
  test('behavior: a vote goes idle → signing (while the wallet holds it) → submitting (while the server does) → done, once the proposal queries are read again; the server gets the vote signed by the voter', async () => {
    // A proposal query on the page: the vote must read it again before it is done.
    let proposalReads = 0
    const { result, seen } = renderAction(() => {
      useQuery({ queryKey: proposalKeys.detail(PROPOSAL), queryFn: () => ++proposalReads })
      return useCastVote()
    })
    await waitFor(() => expect(proposalReads).toBe(1))
    const server_ = heldAnswer()
    server.answer(() => server_.answer)
    wallet.control.holdNext('eth_signTypedData_v4')

    let answered: Promise<unknown> = Promise.resolve()
    act(() => {
      answered = result.current.run(vote)
    })
    await waitFor(() => expect(wallet.control.held()).toEqual(['eth_signTypedData_v4']))
    expect(result.current.status).toEqual({ step: 'signing' })
    expect(result.current.busy).toBe(true)
    expect(server.received).toEqual([])

    wallet.control.release('eth_signTypedData_v4')
    await waitFor(() => expect(server.received).toHaveLength(1))
    expect(result.current.status).toEqual({ step: 'submitting' })
    const [request] = server.received
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe(`/api/proposals/${PROPOSAL}/votes`)
    const signed = signedVoteSchema.parse(JSON.parse(request?.body ?? ''))
    expect(signed.message).toEqual(vote)
    const typed = voteTypedData(domain, signed.message)
    expect(await verifyTypedData({ ...typed, address: ADA, signature: signed.signature })).toBe(true)
    expect(proposalReads).toBe(1)

    server_.give({ status: 201, body: { id: VOTE_ID, created: true, counts: true } })
    expect(await act(() => answered)).toEqual({ id: VOTE_ID, created: true, counts: true })
    expect(result.current.status).toEqual({ step: 'done' })
    expect(result.current.busy).toBe(false)
    expect(proposalReads).toBe(2)
    expect(seen.map((status) => status.step)).toEqual(['idle', 'signing', 'submitting', 'done'])
  })

  test('behavior: a signature turned down in the wallet fails with "You cancelled the signature in your wallet." and sends nothing', async () => {
    const { result, seen } = renderAction(useCastVote)
    wallet.control.holdNext('eth_signTypedData_v4')
    let answered: Promise<unknown> = Promise.resolve()
    act(() => {
      answered = result.current.run(vote)
    })
    await waitFor(() => expect(wallet.control.held()).toEqual(['eth_signTypedData_v4']))
    expect(result.current.status).toEqual({ step: 'signing' })
    wallet.control.release('eth_signTypedData_v4', { code: 4001, message: 'User rejected the request.' })
    expect(await act(() => answered)).toBeUndefined()
    expect(result.current.status).toEqual({
      step: 'failed',
      error: 'You cancelled the signature in your wallet.',
    })
    expect(server.received).toEqual([])
    expect(seen.map((status) => status.step)).toEqual(['idle', 'signing', 'failed'])
    // Reset, as a page does before another try, brings it back to idle.
    act(() => result.current.reset())
    expect(result.current.status).toEqual({ step: 'idle' })
  })

  test('behavior: a second run while one is under way is not started: the wallet is asked once', async () => {
    const { result } = renderAction(useCastVote)
    wallet.control.holdNext('eth_signTypedData_v4')
    let first: Promise<unknown> = Promise.resolve()
    act(() => {
      first = result.current.run(vote)
    })
    await waitFor(() => expect(wallet.control.held()).toEqual(['eth_signTypedData_v4']))
    expect(await act(() => result.current.run({ ...vote, choices: [2] }))).toBeUndefined()
    expect(result.current.status).toEqual({ step: 'signing' })
    server.answer(() => ({ status: 201, body: { id: VOTE_ID, created: true, counts: true } }))
    wallet.control.release('eth_signTypedData_v4')
    await act(() => first)
    expect(server.received.map((r) => signedVoteSchema.parse(JSON.parse(r.body)).message.choices)).toEqual([
      [1],
    ])
    expect(result.current.status).toEqual({ step: 'done' })
  })

  test('behavior: a weighted ballot is signed as a version 2 vote the wallet reads as numbers, and a vote the server refuses (422) fails with its sentence', async () => {
    server.answer(() => ({
      status: 422,
      body: {
        error: 'bad_choices',
        message: 'Give one weight for each choice you pick: 2 choices and 1 weights',
      },
    }))
    const { result } = renderAction(useCastVote)
    const weighted = { version: 2 as const, ...vote, choices: [1, 3], weights: [60, 40] }
    expect(await act(() => result.current.run(weighted))).toBeUndefined()
    expect(result.current.status).toEqual({
      step: 'failed',
      error: 'Give one weight for each choice you pick: 2 choices and 1 weights',
    })
    // The wallet was asked for the Vote with its weights as a uint32[] of numbers, and signed that.
    const asked = wallet.control.requests.findLast((r) => r.method === 'eth_signTypedData_v4')
    const typed = JSON.parse(String((asked?.params as unknown[] | undefined)?.[1]))
    expect(typed.types.Vote).toContainEqual({ name: 'weights', type: 'uint32[]' })
    expect(typed.message.weights).toEqual([60, 40])
    const signed = signedVoteSchema.parse(JSON.parse(server.received[0]?.body ?? ''))
    expect(signed.message).toEqual(weighted)
    const check = voteTypedData(domain, signed.message)
    expect(await verifyTypedData({ ...check, address: ADA, signature: signed.signature })).toBe(true)
  })

  test("behavior: a statement the server refuses (409) fails with the statement's own sentence, and the statement is not read again", async () => {
    // The editor reads the current statement (none: 404); the publication is refused.
    server.answer(({ method }) =>
      method === 'GET'
        ? { status: 404, body: { error: 'not_found', message: 'No statement.' } }
        : {
            status: 409,
            body: { error: 'conflict', message: 'A later statement of yours is already published.' },
          },
    )
    const statementReads = () => server.received.filter((r) => r.method === 'GET').length
    const { result } = renderAction(() => {
      useDelegateStatement(ADA)
      return usePublishStatement()
    })
    await waitFor(() => expect(statementReads()).toBe(1))
    const message = { delegate: ADA, statement: '## Me', timestamp: 1_900_000_000 }
    expect(await act(() => result.current.run(message))).toBeUndefined()
    expect(result.current.status).toEqual({
      step: 'failed',
      error:
        'A later statement of yours is already published. Reload the page to edit your latest statement.',
    })
    const [request] = server.received.filter((r) => r.method === 'POST')
    expect(request?.path).toBe(`/api/delegates/${ADA}/statement`)
    const signed = signedDelegateStatementSchema.parse(JSON.parse(request?.body ?? ''))
    const typed = delegateStatementTypedData(domain, signed.message)
    expect(await verifyTypedData({ ...typed, address: ADA, signature: signed.signature })).toBe(true)
    expect(statementReads()).toBe(1)
  })
})
