import { dehydrate, hydrate, QueryObserver } from '@tanstack/react-query'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createQueryClient, createQueryPersister } from './query-client.ts'

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
