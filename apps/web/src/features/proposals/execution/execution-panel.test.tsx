// The execution panel's states, through the real panel: each state of GET /api/proposals/:id/execution in
// words, the hashes a signer compares, "1 of 2" with who signed; the queued transaction checked against
// the one this browser derives from the signed proposal; an owner's signature made by the development
// wallet with anvil's public key (a real SafeTx signature, checked here as the Safe checks it). A local
// HTTP server stands in for the API and records what the panel asks.
import {
  BASIC_CHOICES,
  decodeAction,
  expectedSafeTransaction,
  MULTI_SEND_CALL_ONLY,
  type ProposalDetail,
  type ProposalExecution,
  publicConfigSchema,
  safeTransactionTypedData,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/browser'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { type Address, type Chain, encodeFunctionData, erc20Abi, type Hex, http, verifyTypedData } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { createConfig, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { injected } from 'wagmi/connectors'
import { toViemChain } from '../../../lib/chains.ts'
import { createDevWalletProvider } from '../../../lib/dev-wallet.ts'
import { PublicConfigProvider } from '../../../lib/public-config-context.tsx'
import { type DroppingServer, startDroppingServer } from '../../../test/dropping-server.ts'
import { checkQueued, ExecutionDetails, ExecutionPanel } from './execution-panel.tsx'

const DEAD_RPC = 'http://127.0.0.1:1'
const ADA = anvilAccounts[1]?.address as Address
const BEN = anvilAccounts[2]?.address as Address
const CLEO = anvilAccounts[3]?.address as Address
const SAFE = '0x1111111111111111111111111111111111111111' as Address
const USDG = '0x2222222222222222222222222222222222222222' as Address
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const CHAIN_ID = 31337
const MULTI_SEND = MULTI_SEND_CALL_ONLY['1.5.0'].address
const PROPOSAL_ID = `0x${'ab'.repeat(32)}` as const

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [
    { id: CHAIN_ID, name: 'Local chain', rpcUrl: DEAD_RPC, blockExplorerUrl: 'https://explorer.test' },
  ],
  token: { address: TOKEN, chainId: CHAIN_ID },
  wallets: ['injected'],
})
const wallet = createDevWalletProvider({ accounts: [{ address: ADA, label: 'Ada' }], chains: config.chains })
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

const actions = [
  {
    target: USDG,
    value: '0',
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [CLEO, 12_500_000n] }),
  },
  { target: CLEO, value: '500000000000000000', data: '0x' as Hex },
]
const proposal: ProposalDetail = {
  id: PROPOSAL_ID,
  author: ADA,
  title: 'Pay Cleo',
  kind: 'basic',
  choices: [...BASIC_CHOICES],
  category: 'Grants',
  start: 1_900_000_000,
  end: 1_900_003_600,
  snapshot: 10,
  state: 'final',
  message: {
    version: 2,
    author: ADA,
    title: 'Pay Cleo',
    body: '',
    kind: 'basic',
    choices: [...BASIC_CHOICES],
    start: 1_900_000_000,
    end: 1_900_003_600,
    snapshot: 10,
    quorum: '1',
    threshold: '1',
    abstainCountsToQuorum: true,
    timestamp: 1_900_000_000,
    category: 'Grants',
    changesSafeSettings: false,
    actions,
  },
  actions: actions.map((action) => ({ ...action, decoded: decodeAction(action, { safe: SAFE }) })),
  changesSafeSettings: false,
  actionWarnings: [],
  signature: '0x',
  tally: {
    version: 1,
    perChoice: ['10', '0', '0'],
    voters: 1,
    votingPower: '10',
    quorumPower: '10',
    quorumReached: true,
    outcome: 'passed',
    leading: [1],
  },
  now: 1_900_010_000,
}

/** The queue entry the server derives for nonce `nonce` (the same core code this browser runs). */
function queuedAt(nonce: number, signatures: NonNullable<ProposalExecution['queued']>['signatures'] = []) {
  const expected = expectedSafeTransaction(proposal.message, nonce, {
    chainId: CHAIN_ID,
    safe: SAFE,
    multiSend: MULTI_SEND,
  })
  if (!expected) throw new Error('the proposal has actions')
  const { transaction } = expected
  return {
    nonce,
    transaction: {
      ...transaction,
      value: String(transaction.value),
      safeTxGas: '0',
      baseGas: '0',
      gasPrice: '0',
      nonce: String(transaction.nonce),
    },
    safeTxHash: expected.safeTxHash,
    domainHash: expected.domainHash,
    messageHash: expected.messageHash,
    queuedAt: 1_900_090_000,
    signatures,
    threshold: 2,
    owners: [ADA, BEN, CLEO],
  }
}

const base: ProposalExecution = {
  state: 'ready-to-queue',
  executableAfter: 1_900_090_000,
  expiresAt: 1_902_595_600,
  safeNonce: 4,
  queued: null,
  executed: null,
  history: [],
}

let server: DroppingServer
let queryClient: QueryClient
let executionAnswer: ProposalExecution

beforeEach(async () => {
  server = await startDroppingServer()
  queryClient = new QueryClient()
  executionAnswer = base
  server.answer(({ path }) => {
    const url = new URL(path, 'http://api')
    if (url.pathname === '/api/names') {
      const addresses = url.searchParams.get('addresses')?.split(',') ?? []
      const names = addresses.map((address) => ({
        address,
        name:
          ({ [ADA]: 'ada.eth', [BEN]: 'ben.eth', [CLEO]: 'cleo.eth' } as Record<string, string>)[address] ??
          null,
        avatarUrl: null,
        pending: false,
      }))
      return { status: 200, body: { names } }
    }
    if (url.pathname === '/api/treasury') {
      return {
        status: 200,
        body: {
          configured: true,
          safe: {
            address: SAFE,
            name: null,
            version: '1.5.0',
            owners: [ADA, BEN, CLEO],
            threshold: 2,
            nonce: 4,
            modules: [],
            guard: null,
          },
          addresses: [],
          blockNumber: 100,
          warnings: [],
          assets: [{ token: USDG, symbol: 'USDG', decimals: 6, balance: '100000000', value: null }],
        },
      }
    }
    if (url.pathname.startsWith(`/api/proposals/${PROPOSAL_ID}/execution`))
      return { status: 200, body: executionAnswer }
    return { status: 404, body: { error: 'not_found', message: 'Not here.' } }
  })
})
afterEach(async () => {
  await disconnect(wagmiConfig)
  await server.close()
  queryClient.clear()
})

function Providers({ children }: { children: React.ReactNode }) {
  return (
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <PublicConfigProvider config={config}>
          <MemoryRouter>{children}</MemoryRouter>
        </PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>
  )
}

const renderDetails = (execution: ProposalExecution, detail: ProposalDetail = proposal) =>
  render(
    <Providers>
      <ExecutionDetails execution={execution} proposal={detail} />
    </Providers>,
  )
const sentence = () => screen.getByTestId('execution-sentence').textContent
const badge = () => screen.getByTestId('execution-state').textContent

describe('the execution panel: each state in words', () => {
  test('behavior: before it passes, and once it did not, it says whether the Safe will carry the actions out', () => {
    renderDetails(
      { ...base, state: 'not-passed', executableAfter: null, expiresAt: null },
      { ...proposal, state: 'active' },
    )
    expect(badge()).toBe('Not executable')
    expect(sentence()).toBe(
      'If the proposal passes, the Safe’s signers can carry out its actions once the objection delay is over.',
    )
    cleanup()
    renderDetails({ ...base, state: 'not-passed', executableAfter: null, expiresAt: null })
    expect(sentence()).toBe('The proposal did not pass: the Safe does not carry out its actions.')
  })

  test('behavior: passed, during the objection delay it says from when it can be queued and until when', () => {
    renderDetails({ ...base, state: 'waiting-delay' })
    expect(badge()).toBe('Objection delay')
    expect(sentence()).toMatch(/^Passed\. Objection delay: it can be queued for the Safe from .+ until .+\.$/)
  })

  test('behavior: queued, it shows the Safe transaction hash, domain hash and message hash, “1 of 2” signatures and who signed, on-chain approvals included', async () => {
    const queued = queuedAt(4, [
      { owner: BEN, via: 'signature', signature: `0x${'11'.repeat(65)}`, logSeq: 7 },
    ])
    renderDetails({ ...base, state: 'queued', queued })
    expect(badge()).toBe('Queued')
    expect(sentence()).toMatch(
      /^Queued for the Safe at nonce 4\. Once enough signers have signed, anyone can execute it until /,
    )
    expect(screen.getByTestId('safe-tx-hash').textContent).toBe(queued.safeTxHash)
    expect(screen.getByTestId('domain-hash').textContent).toBe(queued.domainHash)
    expect(screen.getByTestId('message-hash').textContent).toBe(queued.messageHash)
    expect(screen.getByTestId('signature-count').textContent).toBe('1 of 2 signatures')
    const signers = within(screen.getByRole('list', { name: 'Signers' })).getAllByRole('listitem')
    await waitFor(() =>
      expect(signers.map((signer) => signer.textContent)).toEqual([
        'ada.eth: not signed yet',
        'ben.eth: signed',
        'cleo.eth: not signed yet',
      ]),
    )
    cleanup()
    renderDetails({
      ...base,
      state: 'queued',
      queued: {
        ...queued,
        signatures: [
          ...queued.signatures,
          { owner: CLEO, via: 'approved-hash', signature: null, logSeq: null },
        ],
      },
    })
    expect(screen.getByTestId('signature-count').textContent).toBe('2 of 2 signatures')
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Signers' }))
          .getAllByRole('listitem')
          .map((signer) => signer.textContent),
      ).toEqual(['ada.eth: not signed yet', 'ben.eth: signed', 'cleo.eth: approved on-chain']),
    )
  })

  test('behavior: an earlier nonce used outside Guildhall, superseded (queue again), expired and executed (linked) each read as what happened', () => {
    renderDetails({ ...base, state: 'waiting-earlier-nonce', safeNonce: 3, queued: queuedAt(4) })
    expect(badge()).toBe('Waiting on an earlier nonce')
    expect(sentence()).toBe(
      'Queued at nonce 4, but the Safe is at nonce 3: a transaction Guildhall did not queue must use nonce 3 first (the Safe runs them in order). Signers can sign meanwhile.',
    )
    cleanup()
    renderDetails({ ...base, state: 'superseded', history: [{ ...queuedAt(4), replacedBy: null }] })
    expect(badge()).toBe('Superseded')
    expect(sentence()).toMatch(
      /^Superseded: another Safe transaction used nonce 4, so the signatures collected no longer apply\. Queue it again, and the signers sign again until /,
    )
    cleanup()
    renderDetails({ ...base, state: 'expired' })
    expect(badge()).toBe('Expired')
    expect(sentence()).toMatch(/^Expired: not executed by .+\. It can no longer be queued or executed\.$/)
    cleanup()
    const hash = `0x${'cd'.repeat(32)}` as const
    renderDetails({
      ...base,
      state: 'executed',
      queued: queuedAt(4),
      executed: { transactionHash: hash, blockNumber: 321, timestamp: 1_900_100_000 },
    })
    expect(badge()).toBe('Executed')
    expect(sentence()).toMatch(/^Executed by the Safe in block 321 on .+\.$/)
    expect(screen.getByRole('link', { name: hash }).getAttribute('href')).toBe(
      `https://explorer.test/tx/${hash}`,
    )
    // Once executed, the signatures' count is history: not shown.
    expect(screen.queryByTestId('signature-count')).toBeNull()
  })
})

describe('the execution panel: what a signer signs is checked here, and signed for real', () => {
  test('behavior: the queued transaction is accepted only when this browser derives the same hash from the signed proposal, through a canonical MultiSendCallOnly', () => {
    const target = { chainId: CHAIN_ID, safe: SAFE }
    expect(checkQueued(proposal, queuedAt(4), target).ok).toBe(true)
    // The server's transaction at nonce 5 named with nonce 4's hash: refused.
    expect(checkQueued(proposal, { ...queuedAt(5), nonce: 4 }, target)).toEqual({
      ok: false,
      reason: `its hash is ${queuedAt(5).safeTxHash}; the proposal's actions make ${queuedAt(4).safeTxHash}`,
    })
    const elsewhere = queuedAt(4)
    elsewhere.transaction.to = USDG
    expect(checkQueued(proposal, elsewhere, target)).toEqual({
      ok: false,
      reason: `it calls ${USDG}, not Safe's MultiSendCallOnly`,
    })
  })

  test('behavior: Ada, an owner who has not signed, presses Sign: her wallet signs the SafeTx under the Safe’s domain, and the server receives her signature of the derived hash', async () => {
    const queued = queuedAt(4, [
      { owner: BEN, via: 'signature', signature: `0x${'11'.repeat(65)}`, logSeq: 7 },
    ])
    executionAnswer = { ...base, state: 'queued', queued }
    const connector = wagmiConfig.connectors[0]
    if (!connector) throw new Error('the wallet connector is missing')
    await connect(wagmiConfig, { connector, chainId: CHAIN_ID })
    render(
      <Providers>
        <ExecutionPanel proposal={proposal} live={false} />
      </Providers>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Sign' }))
    await waitFor(() =>
      expect(server.received.some((request) => request.path.endsWith('/execution/signatures'))).toBe(true),
    )
    const request = server.received.find((entry) => entry.path.endsWith('/execution/signatures'))
    const body = JSON.parse(request?.body ?? '') as { owner: Address; safeTxHash: Hex; signature: Hex }
    expect(request?.path).toBe(`/api/proposals/${PROPOSAL_ID}/execution/signatures`)
    expect(body.owner).toBe(ADA)
    expect(body.safeTxHash).toBe(queued.safeTxHash)
    const expected = expectedSafeTransaction(proposal.message, 4, {
      chainId: CHAIN_ID,
      safe: SAFE,
      multiSend: MULTI_SEND,
    })
    if (!expected) throw new Error('the proposal has actions')
    const typed = safeTransactionTypedData({
      chainId: CHAIN_ID,
      safe: SAFE,
      transaction: expected.transaction,
    })
    expect(await verifyTypedData({ ...typed, address: ADA, signature: body.signature })).toBe(true)
    expect(await screen.findByText('Your signature is recorded.')).toBeTruthy()
  })

  test('behavior: a queued transaction that is not the proposal’s is not offered for signing: “Do not sign”', async () => {
    executionAnswer = { ...base, state: 'queued', queued: { ...queuedAt(5), nonce: 4 } }
    const connector = wagmiConfig.connectors[0]
    if (!connector) throw new Error('the wallet connector is missing')
    await connect(wagmiConfig, { connector, chainId: CHAIN_ID })
    render(
      <Providers>
        <ExecutionPanel proposal={proposal} live={false} />
      </Providers>,
    )
    expect((await screen.findByTestId('execution-mismatch')).textContent).toMatch(
      /^Do not sign: the queued transaction is not the one this proposal’s actions make \(its hash is 0x/,
    )
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Execute' })).toBeNull()
  })

  test('behavior: ready to queue, anyone presses “Queue for the Safe”: the queue is asked once and its answer shown', async () => {
    render(
      <Providers>
        <ExecutionPanel proposal={proposal} live={false} />
      </Providers>,
    )
    const queue = await screen.findByRole('button', { name: 'Queue for the Safe' })
    executionAnswer = { ...base, state: 'queued', queued: queuedAt(4) }
    fireEvent.click(queue)
    await waitFor(() => expect(screen.getByTestId('execution-state').textContent).toBe('Queued'))
    expect(
      server.received.filter((request) => request.path.endsWith('/execution/queue')).map((r) => r.method),
    ).toEqual(['POST'])
  })
})
