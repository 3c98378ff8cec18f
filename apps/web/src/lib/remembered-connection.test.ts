// The remembered connection under the spec's key `wagmi.<connector id>.shimDisconnect` (ADR 042): the
// app's wagmi config (createWagmiConfig, over jsdom's localStorage) with wagmi's own injected connectors
// (an EIP-6963 wallet wagmi finds itself, RainbowKit's "Browser Wallet", wagmi's targetless one), driven
// by wagmi's actions against the test wallet the browser tests inject (no node behind it: connecting
// asks the wallet only).
import { publicConfigSchema } from '@guildhall/core'
import { type AnvilProvider, createAnvilProvider } from '@guildhall/devchain/browser'
import { TEST_WALLET_RDNS } from '@guildhall/devchain/wallet/inject'
import { foundry } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { type Config, type CreateConnectorFn, createConfig, http, injected } from 'wagmi'
import { connect, disconnect, getAccount, reconnect } from 'wagmi/actions'
import { safe } from 'wagmi/connectors'
import { addWalletConnectors } from '../wallet-kit/connectors.ts'
import { createWagmiConfig } from './wagmi.ts'

const DEAD_RPC = 'http://127.0.0.1:9'
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const TEST_WALLET_KEY = `wagmi.${TEST_WALLET_RDNS}.shimDisconnect`
const INJECTED_KEY = 'wagmi.injected.shimDisconnect'

const publicConfig = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: 31337, name: 'Local chain', rpcUrl: `${DEAD_RPC}/` }],
  // "Browser Wallet" only: nothing here may reach a wallet SDK's servers.
  wallets: ['injected'],
})

/** The test wallet; `granted`: it already grants this site its account, as after an earlier visit. */
const testWallet = (granted: boolean): AnvilProvider =>
  createAnvilProvider({
    accounts: [ACCOUNT],
    chains: [{ chainId: 31337, rpcUrl: DEAD_RPC, name: 'Local chain' }],
    connected: granted,
    errorDelayMs: 0,
  })

const announcers: (() => void)[] = []
const stopAnnouncing = () => {
  for (const announcer of announcers.splice(0))
    window.removeEventListener('eip6963:requestProvider', announcer)
}
/** Announces `wallet` over EIP-6963 (as the injected test wallet does), for the next config to find; one wallet per page. */
function announce(wallet: AnvilProvider) {
  stopAnnouncing()
  const info = {
    uuid: crypto.randomUUID(),
    name: 'Test Wallet',
    icon: 'data:image/svg+xml,<svg/>',
    rdns: TEST_WALLET_RDNS,
  }
  const announcer = () =>
    window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: { info, provider: wallet } }))
  window.addEventListener('eip6963:requestProvider', announcer)
  announcers.push(announcer)
}

/** A page load: the app's wagmi config finding `wallet`. */
function load(wallet: AnvilProvider): Config {
  announce(wallet)
  return createWagmiConfig(publicConfig)
}

const connectorOf = (wagmiConfig: Config, id: string) => {
  const connector = wagmiConfig.connectors.find((c) => c.id === id)
  if (!connector) throw new Error(`no connector ${id}`)
  return connector
}

/** Adds a connector to the running config, as the wallet kit adds RainbowKit's (wallet-kit/connectors.ts). */
function addConnector(wagmiConfig: Config, createConnector: CreateConnectorFn) {
  const connector = wagmiConfig._internal.connectors.setup(createConnector)
  wagmiConfig._internal.connectors.setState((connectors) => [...connectors, connector])
  return connector
}

/** localStorage's keys that are wagmi 2's own remembered-connection flags (never stored for injected wallets). */
const wagmiFlagKeys = () =>
  Object.keys(localStorage).filter(
    (key) => key.endsWith('.disconnected') || key === 'wagmi.injected.connected',
  )

/** Lets every pending promise reaction run (the wallet answers without timers), then returns. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

beforeEach(() => localStorage.clear())
afterEach(() => {
  stopAnnouncing()
  delete (window as { ethereum?: unknown }).ethereum
})

describe('rememberedConnectionStorage (wagmi reads the spec’s key through its own flags)', () => {
  test('behavior: an EIP-6963 wallet connected through wagmi is remembered under `wagmi.<rdns>.shimDisconnect`, and Disconnect removes it; wagmi 2’s own flags are never stored', async () => {
    const wagmiConfig = load(testWallet(false))
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()

    await connect(wagmiConfig, { connector: connectorOf(wagmiConfig, TEST_WALLET_RDNS) })
    expect(getAccount(wagmiConfig).address).toBe(ACCOUNT)
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBe('true')
    // wagmi's other keys are stored as wagmi stores them.
    expect(localStorage.getItem('wagmi.recentConnectorId')).toBe(JSON.stringify(TEST_WALLET_RDNS))

    await disconnect(wagmiConfig)
    expect(getAccount(wagmiConfig).status).toBe('disconnected')
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()
    expect(wagmiFlagKeys()).toEqual([])
  })

  test('behavior: a reload reconnects a remembered wallet; after Disconnect it does not, though the wallet still grants the site', async () => {
    const first = load(testWallet(false))
    await connect(first, { connector: connectorOf(first, TEST_WALLET_RDNS) })

    const reloaded = load(testWallet(true))
    expect((await reconnect(reloaded)).map((c) => c.connector.id)).toEqual([TEST_WALLET_RDNS])
    expect(getAccount(reloaded)).toMatchObject({ status: 'connected', address: ACCOUNT })

    await disconnect(reloaded)
    const afterDisconnect = load(testWallet(true))
    expect(await reconnect(afterDisconnect)).toEqual([])
    expect(getAccount(afterDisconnect).status).toBe('disconnected')
  })

  test('behavior: a wallet that grants the site but was never connected here is not connected on load (wagmi 2’s own storage would connect it)', async () => {
    const wagmiConfig = load(testWallet(true))
    expect(await reconnect(wagmiConfig)).toEqual([])
    expect(getAccount(wagmiConfig).status).toBe('disconnected')
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()

    // The same load with wagmi's default storage: the granted wallet is connected unasked.
    announce(testWallet(true))
    const plainWagmi = createConfig({ chains: [foundry], transports: { [foundry.id]: http(DEAD_RPC) } })
    expect((await reconnect(plainWagmi)).map((c) => c.connector.id)).toEqual([TEST_WALLET_RDNS])
  })

  test('behavior: "Browser Wallet" (RainbowKit’s injected connector) is remembered under `wagmi.injected.shimDisconnect`, its EIP-6963 twin is not', async () => {
    const wallet = testWallet(false)
    ;(window as { ethereum?: unknown }).ethereum = wallet
    const wagmiConfig = load(wallet)
    await addWalletConnectors(wagmiConfig, publicConfig, new Set())

    await connect(wagmiConfig, { connector: connectorOf(wagmiConfig, 'injected') })
    expect(localStorage.getItem(INJECTED_KEY)).toBe('true')
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()

    await disconnect(wagmiConfig)
    expect(localStorage.getItem(INJECTED_KEY)).toBeNull()
    expect(wagmiFlagKeys()).toEqual([])
  })

  test('behavior: wagmi’s targetless injected connector keeps its "connected once" flag as the same key, and reconnects only with it', async () => {
    const wallet = testWallet(false)
    ;(window as { ethereum?: unknown }).ethereum = wallet
    const wagmiConfig = createWagmiConfig(publicConfig)
    const targetless = addConnector(wagmiConfig, injected())
    expect(targetless.id).toBe('injected')
    expect(await targetless.isAuthorized()).toBe(false)

    await connect(wagmiConfig, { connector: targetless })
    expect(localStorage.getItem(INJECTED_KEY)).toBe('true')
    expect(await targetless.isAuthorized()).toBe(true)

    await disconnect(wagmiConfig)
    expect(localStorage.getItem(INJECTED_KEY)).toBeNull()
    expect(wagmiFlagKeys()).toEqual([])
    await wallet.request({ method: 'eth_requestAccounts' })
    expect(await targetless.isAuthorized()).toBe(false)
  })

  test('behavior: a connector that is not injected keeps wagmi’s own flag (Safe’s `safe.disconnected`)', async () => {
    const wagmiConfig = createWagmiConfig(publicConfig)
    addConnector(wagmiConfig, safe({ shimDisconnect: true }))
    await wagmiConfig.storage?.setItem('safe.disconnected', true)
    expect(localStorage.getItem('wagmi.safe.disconnected')).toBe('true')
    expect(localStorage.getItem('wagmi.safe.shimDisconnect')).toBeNull()
    expect(await wagmiConfig.storage?.getItem('safe.disconnected')).toBe(true)
  })
})

describe('rememberWhileConnected (the wallet’s own events; createWagmiConfig installs it)', () => {
  test('behavior: the wallet’s disconnect event forgets the connection, except code 1013 while the wallet keeps its account', async () => {
    const wallet = testWallet(false)
    const wagmiConfig = load(wallet)
    await connect(wagmiConfig, { connector: connectorOf(wagmiConfig, TEST_WALLET_RDNS) })
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBe('true')

    wallet.control.clearRequests()
    wallet.control.emitDisconnect(1013)
    // wagmi asks the wallet for its accounts before deciding; they are still there.
    await vi.waitFor(() => expect(wallet.control.requests.map((r) => r.method)).toContain('eth_accounts'))
    await settle()
    expect(getAccount(wagmiConfig).status).toBe('connected')
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBe('true')

    wallet.control.emitDisconnect()
    await vi.waitFor(() => expect(getAccount(wagmiConfig).status).toBe('disconnected'))
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()
    expect(wagmiFlagKeys()).toEqual([])
    // The wallet grants the site again, yet the next load does not reconnect.
    const reloaded = load(testWallet(true))
    expect(await reconnect(reloaded)).toEqual([])
  })

  test('behavior: a connection the wallet starts itself (its connect event) is remembered, and forgotten when the wallet drops its accounts', async () => {
    const wallet = testWallet(true)
    const wagmiConfig = load(wallet)
    expect(await reconnect(wagmiConfig)).toEqual([])

    wallet.control.emitConnect()
    await vi.waitFor(() => expect(getAccount(wagmiConfig).status).toBe('connected'))
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBe('true')

    wallet.control.setAccounts([])
    await vi.waitFor(() => expect(getAccount(wagmiConfig).status).toBe('disconnected'))
    expect(localStorage.getItem(TEST_WALLET_KEY)).toBeNull()
  })
})
