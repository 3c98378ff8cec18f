// The wallet kit's pieces that run outside the browser's wallet flows (ADR 008): what a reload remembers,
// which connectors may start their SDK, how the kit's connectors join wagmi, and the transaction queue.
import { publicConfigSchema } from '@guildhall/core'
import { createAnvilProvider } from '@guildhall/devchain/browser'
import { connectorsForWallets } from '@rainbow-me/rainbowkit'
import { injectedWallet, walletConnectWallet } from '@rainbow-me/rainbowkit/wallets'
import { foundry } from 'viem/chains'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { type Config, type CreateConnectorFn, createConfig, createStorage, http } from 'wagmi'
import { getAccount } from 'wagmi/actions'
import { mock } from 'wagmi/connectors'
import { addWalletConnectors } from './connectors.ts'
import { queueRecentTransaction, registerKitFunctions, requestConnectModal } from './kit-bridge.ts'
import { rememberedConnectorIds, sdkOnDemand } from './wallet-sdk-on-demand.ts'

const DEAD_RPC = 'http://127.0.0.1:9'
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function memoryStorage(entries: Record<string, string> = {}) {
  const map = new Map(Object.entries(entries))
  return createStorage({
    storage: {
      getItem: (key) => map.get(key) ?? null,
      setItem: (key, value) => void map.set(key, value),
      removeItem: (key) => void map.delete(key),
    },
  })
}

const persistedStore = (connectorIds: string[]) =>
  JSON.stringify({
    state: {
      connections: {
        __type: 'Map',
        value: connectorIds.map((id, i) => [
          `uid${i}`,
          {
            accounts: [ACCOUNT],
            chainId: 31337,
            connector: { id, name: id, type: 'injected', uid: `uid${i}` },
          },
        ]),
      },
      chainId: 31337,
      current: connectorIds.length > 0 ? 'uid0' : null,
    },
    version: 2,
  })

describe('rememberedConnectorIds', () => {
  test('reads the connector ids of the connections wagmi persisted', async () => {
    const storage = memoryStorage({ 'wagmi.store': persistedStore(['injected', 'walletConnect']) })
    expect(await rememberedConnectorIds(storage)).toEqual(new Set(['injected', 'walletConnect']))
  })

  test.each([
    ['a first visit', {}],
    ['an explicit disconnect (no connections left)', { 'wagmi.store': persistedStore([]) }],
    ['unreadable JSON', { 'wagmi.store': '{not json' }],
    ['another shape', { 'wagmi.store': JSON.stringify({ state: { connections: [1, 2] } }) }],
  ])('remembers nothing after %s', async (_name, entries) => {
    expect(await rememberedConnectorIds(memoryStorage(entries))).toEqual(new Set())
  })
})

describe('sdkOnDemand', () => {
  const wagmiParameters = {
    chains: [foundry],
    emitter: { uid: 'test' } as never,
    storage: null,
    transports: { [foundry.id]: http(DEAD_RPC) },
  } as const
  /** The connector RainbowKit makes of a wallet, as `connectorsForWallets` does for the app. */
  const connectorOf = (wallet: Parameters<typeof sdkOnDemand>[0] extends infer W ? () => W : never) => {
    const [createConnector] = connectorsForWallets([{ groupName: 'Popular', wallets: [wallet] }], {
      appName: 'Guildhall',
      projectId: 'test-project',
    })
    return (createConnector as CreateConnectorFn)(wagmiParameters)
  }
  const walletConnect = (remembered: Set<string>) => () =>
    sdkOnDemand(walletConnectWallet({ projectId: 'test-project', options: {} }), remembered)

  test('a WalletConnect connector created without a remembered connection has no setup (which would start its SDK)', () => {
    const connector = connectorOf(walletConnect(new Set()))
    expect(connector.id).toBe('walletConnect')
    expect(connector.setup).toBeUndefined()
    // Everything the user's pick needs is still there.
    expect(connector.connect).toBeTypeOf('function')
    expect(connector.getProvider).toBeTypeOf('function')
  })

  test('a remembered WalletConnect connection keeps its setup, so it can be restored', () => {
    expect(connectorOf(walletConnect(new Set(['walletConnect']))).setup).toBeTypeOf('function')
  })

  test('an injected connector is left as it is (it loads no SDK)', () => {
    const base = connectorOf(() => injectedWallet())
    const wrapped = connectorOf(() => sdkOnDemand(injectedWallet(), new Set()))
    expect(wrapped.type).toBe('injected')
    expect(Object.keys(wrapped).sort()).toEqual(Object.keys(base).sort())
  })
})

describe('addWalletConnectors', () => {
  const config = publicConfigSchema.parse({
    dao: { name: 'Guildhall DAO' },
    appUrl: 'http://127.0.0.1:3000',
    chains: [{ id: 31337, name: 'Local chain', rpcUrl: `${DEAD_RPC}/` }],
    // No WalletConnect wallet: nothing here may reach WalletConnect's servers.
    wallets: ['coinbase', 'brave', 'safe'],
  })

  const newWagmiConfig = (): Config =>
    createConfig({
      chains: [foundry],
      connectors: [],
      transports: { [foundry.id]: http(DEAD_RPC) },
      storage: memoryStorage(),
      multiInjectedProviderDiscovery: false,
    })

  test('adds the wallet list to wagmi once, in list order, before wallets wagmi found itself', async () => {
    const wagmiConfig = newWagmiConfig()
    const discovered = wagmiConfig._internal.connectors.setup(mock({ accounts: [ACCOUNT] }))
    wagmiConfig._internal.connectors.setState([discovered])
    await addWalletConnectors(wagmiConfig, config, new Set())
    await addWalletConnectors(wagmiConfig, config, new Set())
    // Brave's connector is plain "injected" where Brave is not installed.
    expect(wagmiConfig.connectors.map((c) => c.id)).toEqual([
      'coinbaseWalletSDK',
      'injected',
      'safe',
      discovered.id,
    ])
  })

  test('an EIP-6963 wallet one of the list declares (same connector rdns, as wagmi matches) is not listed twice', async () => {
    const wagmiConfig = newWagmiConfig()
    // As an EIP-6963 announcement of the Coinbase extension would be (RainbowKit's Coinbase connector
    // declares that rdns).
    const announced = Object.assign(wagmiConfig._internal.connectors.setup(mock({ accounts: [ACCOUNT] })), {
      rdns: 'com.coinbase.wallet',
    })
    wagmiConfig._internal.connectors.setState([announced])
    await addWalletConnectors(wagmiConfig, config, new Set())
    expect(wagmiConfig.connectors.filter((c) => c.rdns === 'com.coinbase.wallet')).toHaveLength(1)
    expect(wagmiConfig.connectors.map((c) => c.uid)).not.toContain(announced.uid)
  })

  test('restores a remembered connection through the remembered connector only', async () => {
    const wagmiConfig = newWagmiConfig()
    const asked: string[] = []
    wagmiConfig._internal.connectors.subscribe((connectors) => {
      for (const connector of connectors) {
        const getProvider = connector.getProvider.bind(connector)
        connector.getProvider = async (parameters) => {
          asked.push(connector.id)
          return getProvider(parameters)
        }
      }
    })
    await addWalletConnectors(wagmiConfig, config, new Set(['safe']))
    // A wallet that is not injected is restored behind the kit: wait for wagmi to give up.
    await vi.waitFor(() => expect(wagmiConfig.state.status).toBe('disconnected'))
    // Outside a Safe app the Safe connector has no provider: nothing connects, and no other was asked.
    expect(asked).toEqual(['safe'])
  })

  test('a remembered injected connection ("Browser Wallet") is restored by the time the kit may render', async () => {
    const wallet = createAnvilProvider({
      accounts: [ACCOUNT],
      chains: [{ chainId: foundry.id, rpcUrl: DEAD_RPC, name: 'Local chain' }],
      connected: true,
      errorDelayMs: 0,
    })
    ;(window as { ethereum?: unknown }).ethereum = wallet
    try {
      const wagmiConfig = newWagmiConfig()
      await addWalletConnectors(wagmiConfig, { ...config, wallets: ['injected'] }, new Set(['injected']))
      expect(getAccount(wagmiConfig)).toMatchObject({ status: 'connected', address: ACCOUNT })
      expect(getAccount(wagmiConfig).connector?.id).toBe('injected')
    } finally {
      delete (window as { ethereum?: unknown }).ethereum
    }
  })
})

describe('the kit bridge', () => {
  afterEach(() => registerKitFunctions({ addRecentTransaction: undefined, openConnectModal: undefined }))

  test('"Connect Wallet" pressed before the kit is ready opens the connect modal once it is, once', () => {
    let opened = 0
    const kit = { addRecentTransaction: () => 0, openConnectModal: () => void opened++ }
    requestConnectModal()
    expect(opened).toBe(0)
    registerKitFunctions(kit)
    expect(opened).toBe(1)
    // Registered again (RainbowKit's functions change with the connection): no second opening.
    registerKitFunctions(kit)
    expect(opened).toBe(1)
    // Ready: a press opens it at once.
    requestConnectModal()
    expect(opened).toBe(2)
  })

  test('a press that lands while the kit unmounts waits for it; one made moot by a connected wallet is dropped', () => {
    let opened = 0
    const open = () => void opened++
    registerKitFunctions({ addRecentTransaction: undefined, openConnectModal: undefined })
    requestConnectModal()
    // The kit is back, but a wallet is connected: RainbowKit offers no connect modal, the request ends.
    registerKitFunctions({ addRecentTransaction: () => 0, openConnectModal: undefined })
    registerKitFunctions({ addRecentTransaction: () => 0, openConnectModal: open })
    expect(opened).toBe(0)
  })

  test('a transaction added before the kit has loaded reaches it once it registers, in order', () => {
    const first = { hash: `0x${'01'.repeat(32)}`, description: 'first' } as const
    const second = { hash: `0x${'02'.repeat(32)}`, description: 'second' } as const
    queueRecentTransaction(first)
    queueRecentTransaction(second)
    const received: unknown[] = []
    registerKitFunctions({ addRecentTransaction: (tx) => received.push(tx), openConnectModal: undefined })
    expect(received).toEqual([first, second])
    const third = { hash: `0x${'03'.repeat(32)}`, description: 'third' } as const
    queueRecentTransaction(third)
    expect(received).toEqual([first, second, third])
  })
})
