import {
  MISSING_PROJECT_ID_MESSAGE,
  publicConfigSchema,
  WALLET_CONNECT_WALLET_IDS,
  type WalletId,
} from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import {
  connectorsForWallets,
  lightTheme,
  RainbowKitAuthenticationProvider,
  RainbowKitProvider,
  useAddRecentTransaction,
  useConnectModal,
  type Wallet,
} from '@rainbow-me/rainbowkit'
import { injectedWallet, walletConnectWallet } from '@rainbow-me/rainbowkit/wallets'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { createConfig, http, useAccount, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { mock } from 'wagmi/connectors'
import { walletList } from '../wallet-kit/connectors.ts'

// Nothing listens on port 1 (binding it needs root): any RPC call fails at once, never leaves the machine.
const DEAD_RPC = 'http://127.0.0.1:1'
const ACCOUNT = anvilAccounts[1]?.address
if (!ACCOUNT) throw new Error('anvil account 1 is missing')
const HASH = `0x${'ab'.repeat(32)}` as const

const wagmiConfig = createConfig({
  chains: [foundry],
  connectors: [mock({ accounts: [ACCOUNT] })],
  transports: { [foundry.id]: http(DEAD_RPC) },
  // The connection made in beforeAll lives in memory only: nothing to restore or reset on mount.
  storage: null,
})

function Providers({ children, id }: { children: ReactNode; id?: string }) {
  return (
    // No reconnect on mount: the mock connector is not "authorized" again, so reconnecting would drop it.
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={new QueryClient()}>
        <RainbowKitProvider id={id}>{children}</RainbowKitProvider>
      </QueryClientProvider>
    </WagmiProvider>
  )
}

type StoredTransactions = Record<
  string,
  Record<string, { hash: string; description: string; status: string }[]>
>
const storedTransactions = (): StoredTransactions =>
  JSON.parse(localStorage.getItem('rk-transactions') ?? '{}')

describe('useAddRecentTransaction validation (RainbowKit transaction store)', () => {
  beforeAll(async () => {
    const connector = wagmiConfig.connectors[0]
    if (!connector) throw new Error('the mock connector is missing')
    await connect(wagmiConfig, { connector })
  })
  afterAll(async () => {
    await disconnect(wagmiConfig)
  })
  beforeEach(() => localStorage.clear())

  /** RainbowKit's addRecentTransaction for the connected account (checked: a connection is required). */
  const addRecentTransaction = () => {
    const { result } = renderHook(() => ({ add: useAddRecentTransaction(), account: useAccount() }), {
      wrapper: ({ children }) => <Providers>{children}</Providers>,
    })
    expect(result.current.account).toMatchObject({
      status: 'connected',
      address: ACCOUNT,
      chainId: foundry.id,
    })
    return result.current.add
  }

  test('a hash that is not 0x + 64 hex digits throws "Unable to add transaction\\nInvalid transaction hash"', () => {
    const add = addRecentTransaction()
    for (const hash of ['0x123', `0x${'ab'.repeat(31)}`, `0x${'g'.repeat(64)}`, 'ab'.repeat(33)]) {
      expect(() => add({ hash, description: 'x' }), hash).toThrow(
        new Error('Unable to add transaction\nInvalid transaction hash'),
      )
    }
    expect(localStorage.getItem('rk-transactions')).toBeNull()
  })

  test('a transaction without a text description throws "Transaction must have a description"', () => {
    const add = addRecentTransaction()
    expect(() => add({ hash: HASH } as never)).toThrow(
      new Error('Unable to add transaction\nTransaction must have a description'),
    )
    expect(() => add({ hash: HASH, description: 42 } as never)).toThrow(
      new Error('Unable to add transaction\nTransaction must have a description'),
    )
  })

  test('confirmations of 0 or 1.5 throw RainbowKit\'s "Transaction confirmations must be a positiver integer" (sic)', () => {
    const add = addRecentTransaction()
    for (const confirmations of [0, 1.5, -1]) {
      expect(() => add({ hash: HASH, description: 'x', confirmations }), String(confirmations)).toThrow(
        new Error('Unable to add transaction\nTransaction confirmations must be a positiver integer'),
      )
    }
  })

  test('every problem of one transaction is listed, one per line', () => {
    const add = addRecentTransaction()
    expect(() => add({ hash: '0x123', confirmations: 0 } as never)).toThrow(
      new Error(
        [
          'Unable to add transaction',
          'Invalid transaction hash',
          'Transaction must have a description',
          'Transaction confirmations must be a positiver integer',
        ].join('\n'),
      ),
    )
  })

  test('a valid transaction is stored in localStorage "rk-transactions" under account, then chain id, as pending', () => {
    const add = addRecentTransaction()
    add({ hash: HASH, description: 'Delegate votes to Ada', confirmations: 1 })
    expect(storedTransactions()).toEqual({
      [ACCOUNT]: {
        [foundry.id]: [
          { hash: HASH, description: 'Delegate votes to Ada', confirmations: 1, status: 'pending' },
        ],
      },
    })
    // RainbowKit now polls the (dead) RPC for the receipt; failed polls are retried, not recorded, so
    // the entry stays pending until RainbowKit's 5-minute receipt time-out, long after this file ends.
  })
})

describe('RainbowKitProvider validation', () => {
  test('an id with characters other than letters, digits and underscore throws "Invalid ID: <id>"', () => {
    expect(() =>
      render(
        <Providers id="bad-id!">
          <span />
        </Providers>,
      ),
    ).toThrow(new Error('Invalid ID: bad-id!'))
  })

  test('an id of letters, digits and underscores is accepted', () => {
    const { container } = render(
      <Providers id="guild_hall_2">
        <span>ok</span>
      </Providers>,
    )
    expect(container.querySelector('[data-rk="guild_hall_2"]')).not.toBeNull()
  })

  test("a theme given as a function (not its result) throws RainbowKit's theme error", () => {
    expect(() =>
      render(
        <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
          <QueryClientProvider client={new QueryClient()}>
            <RainbowKitProvider theme={lightTheme as never}>
              <span />
            </RainbowKitProvider>
          </QueryClientProvider>
        </WagmiProvider>,
      ),
    ).toThrow(
      new Error(
        'A theme function was provided to the "theme" prop instead of a theme object. You must execute this function to get the resulting theme object.',
      ),
    )
  })
})

describe('connectorsForWallets validation', () => {
  const app = { appName: 'Guildhall DAO', projectId: 'abc123' }
  const withAccent = (iconAccent: string) => (): Wallet => ({
    ...injectedWallet(),
    name: 'Accent Wallet',
    iconAccent,
  })

  test('a wallet whose iconAccent is not a hex colour throws "Property `iconAccent` is not a hex value for wallet: <name>"', () => {
    expect(() =>
      connectorsForWallets([{ groupName: 'Popular', wallets: [withAccent('blue')] }], app),
    ).toThrow(new Error('Property `iconAccent` is not a hex value for wallet: Accent Wallet'))
  })

  test('a hex iconAccent of 3 or 6 digits is accepted', () => {
    for (const accent of ['#abc', '#0E76FD']) {
      expect(
        connectorsForWallets([{ groupName: 'Popular', wallets: [withAccent(accent)] }], app),
      ).toHaveLength(1)
    }
  })

  test('a WalletConnect wallet with projectId "" throws "No projectId found. Every dApp must now provide a WalletConnect Cloud projectId…"', () => {
    expect(() =>
      connectorsForWallets([{ groupName: 'Popular', wallets: [walletConnectWallet] }], {
        ...app,
        projectId: '',
      }),
    ).toThrow(new Error(MISSING_PROJECT_ID_MESSAGE))
  })

  test('exactly the wallets our config calls WalletConnect-based need a project id in RainbowKit (no injected wallet present)', () => {
    const chains = [{ id: 31337, name: 'Local chain', rpcUrl: `${DEAD_RPC}/` }]
    const listFor = (wallets: WalletId[]) =>
      walletList(
        publicConfigSchema.parse({
          dao: { name: 'Guildhall DAO' },
          appUrl: 'http://127.0.0.1:3000',
          chains,
          wallets,
          // Only for parsing: RainbowKit below gets an empty project id.
          walletConnectProjectId: 'parse-only',
        }),
      )
    const others: WalletId[] = ['injected', 'safe', 'coinbase', 'brave']
    expect(connectorsForWallets(listFor(others), { ...app, projectId: '' }).length).toBeGreaterThan(0)
    for (const id of WALLET_CONNECT_WALLET_IDS) {
      expect(() => connectorsForWallets(listFor([id]), { ...app, projectId: '' }), id).toThrow(
        new Error(MISSING_PROJECT_ID_MESSAGE),
      )
    }
  })
})

/** A button that opens RainbowKit's connect modal (its sign-in dialog while unauthenticated). */
function OpenConnectModal() {
  const { openConnectModal } = useConnectModal()
  return (
    <button type="button" onClick={openConnectModal}>
      Verify
    </button>
  )
}

describe('RainbowKit guards the app never trips (a misuse raises an error, not a silent no-op)', () => {
  beforeAll(async () => {
    const connector = wagmiConfig.connectors[0]
    if (!connector) throw new Error('the mock connector is missing')
    await connect(wagmiConfig, { connector })
  })
  afterAll(async () => {
    await disconnect(wagmiConfig)
  })

  test('a transaction hook outside RainbowKitProvider throws "Transaction hooks must be used within RainbowKitProvider"', () => {
    expect(() =>
      renderHook(() => useAddRecentTransaction(), {
        wrapper: ({ children }) => (
          <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
            <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
          </WagmiProvider>
        ),
      }),
    ).toThrow(new Error('Transaction hooks must be used within RainbowKitProvider'))
  })

  test('the sign-in dialog opened without an authentication adapter throws "No authentication adapter found"', async () => {
    const { getByRole } = render(
      <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
        <QueryClientProvider client={new QueryClient()}>
          {/* What a sign-in set-up without its adapter would be: the status asks for verification. */}
          <RainbowKitAuthenticationProvider adapter={undefined as never} status="unauthenticated">
            <RainbowKitProvider>
              <OpenConnectModal />
            </RainbowKitProvider>
          </RainbowKitAuthenticationProvider>
        </QueryClientProvider>
      </WagmiProvider>,
    )
    // Opened after mount: RainbowKit closes every modal when it first sees the "unauthenticated" status.
    await expect(act(async () => getByRole('button', { name: 'Verify' }).click())).rejects.toThrow(
      new Error('No authentication adapter found'),
    )
  })
})
