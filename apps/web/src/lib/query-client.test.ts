import { WALLET_ERROR_MESSAGES } from '@guildhall/core'
import { dehydrate, hydrate, MutationObserver, QueryObserver } from '@tanstack/react-query'
import { http } from 'viem'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createConfig } from 'wagmi'
import { connect } from 'wagmi/actions'
import { injected, mock } from 'wagmi/connectors'
import { connectMutationOptions, switchChainMutationOptions } from 'wagmi/query'
import { notify } from './notifications.ts'
import { createQueryClient, createQueryPersister } from './query-client.ts'

vi.mock('./notifications.ts', () => ({ notify: vi.fn() }))

const ONE_DAY_MS = 24 * 60 * 60 * 1000

describe('createQueryClient', () => {
  test('queries default to a one-day cache time, no retries and offline-first; mutations to offline-first', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions()
    expect(queries).toMatchObject({ gcTime: ONE_DAY_MS, retry: 0, networkMode: 'offlineFirst' })
    expect(mutations).toMatchObject({ networkMode: 'offlineFirst' })
  })

  test('a failing query runs its function once: no retries', async () => {
    const client = createQueryClient()
    let calls = 0
    const observer = new QueryObserver(client, {
      queryKey: ['balance'],
      queryFn: async () => {
        calls++
        throw new Error('node down')
      },
    })
    const settled = new Promise<void>((resolve) => {
      const unsubscribe = observer.subscribe((result) => {
        if (result.status === 'error') {
          unsubscribe()
          resolve()
        }
      })
    })
    await settled
    expect(calls).toBe(1)
    const query = client.getQueryCache().find({ queryKey: ['balance'] })
    expect(query?.options).toMatchObject({ gcTime: ONE_DAY_MS, retry: 0, networkMode: 'offlineFirst' })
    expect(query?.state.fetchFailureCount).toBe(1)
  })
})

describe('createQueryPersister', () => {
  beforeEach(() => {
    localStorage.clear()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
    localStorage.clear()
  })

  test("persists the query cache in localStorage under the key 'cache', bigints included, and restores it", async () => {
    const client = createQueryClient()
    const persister = createQueryPersister()
    client.setQueryData(['balance', '0xf39f'], { value: 1_000_000_000_000_000_000n, symbol: 'ETH' })

    // What PersistQueryClientProvider does on every cache change.
    await persister.persistClient({ timestamp: Date.now(), buster: '', clientState: dehydrate(client) })
    // The sync persister writes at most once a second (throttled).
    expect(localStorage.getItem('cache')).toBeNull()
    vi.advanceTimersByTime(1_000)

    expect(Object.keys(localStorage)).toEqual(['cache'])
    const stored = localStorage.getItem('cache') ?? ''
    expect(stored).toContain('"queryKey":["balance","0xf39f"]')
    expect(stored).toContain('"value":{"__type":"bigint","value":"1000000000000000000"}')

    const restored = createQueryClient()
    const persisted = await createQueryPersister().restoreClient()
    if (!persisted) throw new Error("nothing could be restored from 'cache'")
    hydrate(restored, persisted.clientState)
    expect(restored.getQueryData(['balance', '0xf39f'])).toEqual({ value: 10n ** 18n, symbol: 'ETH' })
  })
})

describe('wallet failures the QueryClient shows (wagmi runs connect and switchChain as mutations)', () => {
  afterEach(() => vi.mocked(notify).mockClear())

  /** wagmi's own config, a wallet and its mutation: what RainbowKit runs when the member picks it. */
  function wagmiConfig(connector: ReturnType<typeof mock> | ReturnType<typeof injected>) {
    return createConfig({
      chains: [mainnet],
      connectors: [connector],
      transports: { [mainnet.id]: http('http://127.0.0.1:1') },
      storage: null,
    })
  }

  test('a browser wallet picked where the page has none (wagmi\'s injected connector throws ProviderNotFoundError) is told in the spec\'s words: "Connector not found"', async () => {
    const config = wagmiConfig(injected())
    const connector = config.connectors[0]
    if (!connector) throw new Error('no connector')
    const observer = new MutationObserver(createQueryClient(), connectMutationOptions(config))
    const error = await observer.mutate({ connector }).catch((thrown: unknown) => thrown)
    expect((error as Error).name).toBe('ProviderNotFoundError')
    expect(vi.mocked(notify).mock.calls).toEqual([[WALLET_ERROR_MESSAGES.connectorNotFound]])
  })

  test("any other failed connect is left to RainbowKit's RETRY: no notice", async () => {
    const config = wagmiConfig(
      mock({ accounts: ['0x0000000000000000000000000000000000000001'], features: { connectError: true } }),
    )
    const connector = config.connectors[0]
    if (!connector) throw new Error('no connector')
    const observer = new MutationObserver(createQueryClient(), connectMutationOptions(config))
    await expect(observer.mutate({ connector })).rejects.toThrow()
    expect(notify).not.toHaveBeenCalled()
  })

  test('a switch to a chain the connector does not have (wagmi: SwitchChainError wrapping ChainNotConfiguredError) shows "chain not found on connector."', async () => {
    const config = wagmiConfig(mock({ accounts: ['0x0000000000000000000000000000000000000001'] }))
    const connector = config.connectors[0]
    if (!connector) throw new Error('no connector')
    await connect(config, { connector })
    const observer = new MutationObserver(createQueryClient(), switchChainMutationOptions(config))
    await expect(observer.mutate({ chainId: 10 as typeof mainnet.id })).rejects.toThrow()
    expect(vi.mocked(notify).mock.calls).toEqual([[WALLET_ERROR_MESSAGES.chainNotFoundOnConnector]])
  })
})
