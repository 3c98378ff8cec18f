import { publicConfigSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import type { Address, Chain } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createConfig, http, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { mock } from 'wagmi/connectors'
import { toViemChain } from '../../lib/chains.ts'
import { PublicConfigProvider } from '../../lib/public-config-context.tsx'
import { DelegateToButton } from './delegate-to-button.tsx'

// Nothing listens on port 1: every chain read fails at once, never leaves the machine.
const DEAD_RPC = 'http://127.0.0.1:1'
const MEMBER = anvilAccounts[1]?.address as Address
const BEN = anvilAccounts[2]?.address as Address

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [
    { id: 31337, name: 'Local chain', rpcUrl: DEAD_RPC },
    { id: 31338, name: 'Guildhall Testnet', rpcUrl: DEAD_RPC },
  ],
  token: { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', chainId: 31337 },
  wallets: ['injected'],
})
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [mock({ accounts: [MEMBER] })],
  transports: Object.fromEntries(config.chains.map((chain) => [chain.id, http(DEAD_RPC)])),
  storage: null,
})

/** The server's GET /api/names: Ben is ben.eth. */
function namesServer() {
  vi.stubGlobal('fetch', async (url: string) => {
    const addresses = new URL(url, 'http://app').searchParams.get('addresses')?.split(',') ?? []
    const names = addresses.map((address) => ({
      address,
      name: address === BEN ? 'ben.eth' : null,
      avatarUrl: null,
      pending: false,
    }))
    return new Response(JSON.stringify({ names }), { headers: { 'content-type': 'application/json' } })
  })
}

function renderButton(props: { delegatee: Address; name?: string }) {
  render(
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={new QueryClient()}>
        <PublicConfigProvider config={config}>
          <DelegateToButton {...props} />
        </PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>,
  )
}

async function connectOn(chainId: 31337 | 31338) {
  const connector = wagmiConfig.connectors[0]
  if (!connector) throw new Error('the mock connector is missing')
  await connect(wagmiConfig, { connector, chainId })
}

afterEach(async () => {
  await disconnect(wagmiConfig)
  vi.unstubAllGlobals()
})

describe('DelegateToButton: the panel’s gates, for one delegate named by the server', () => {
  test('behavior: without a wallet it asks to connect one, naming the delegate, and points to the header’s Connect Wallet instead of a second button', async () => {
    namesServer()
    renderButton({ delegatee: BEN })
    const notice = await screen.findByTestId('delegation-connect')
    await waitFor(() =>
      expect(notice.textContent).toBe(
        'Connect a wallet to delegate to ben.eth: use Connect Wallet at the top of the page.',
      ),
    )
    expect(screen.queryAllByRole('button')).toEqual([])
  })

  test('behavior: on another network it offers the switch to the token’s chain, and no delegation', async () => {
    namesServer()
    await connectOn(31338)
    renderButton({ delegatee: BEN })
    expect(await screen.findByRole('button', { name: 'Switch to Local chain' })).toBeTruthy()
    expect(screen.getByText(/The governance token lives on Local chain/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: /^Delegate/ })).toBeNull()
  })

  test('behavior: on the token’s chain it reads "Delegate to ben.eth", disabled until the current delegate is read; a given name wins, and oneself is “myself”', async () => {
    namesServer()
    await connectOn(31337)
    renderButton({ delegatee: BEN })
    const button = await screen.findByRole('button', { name: 'Delegate to ben.eth' })
    // The dead RPC never answers who the member delegates to: pressing must wait for that.
    expect(button.hasAttribute('disabled')).toBe(true)
    renderButton({ delegatee: BEN, name: 'benjamin.eth' })
    expect(await screen.findByRole('button', { name: 'Delegate to benjamin.eth' })).toBeTruthy()
    renderButton({ delegatee: MEMBER })
    expect(await screen.findByRole('button', { name: 'Delegate to myself' })).toBeTruthy()
  })
})
