import { expect, test } from 'vitest'
import {
  DEFAULT_CONFIRMATIONS,
  HTTP_TIMEOUT_MS,
  MULTICALL_BATCH_SIZE,
  POLLING_INTERVAL_MS,
  QUERY_GC_TIME_MS,
  QUERY_NETWORK_MODE,
  QUERY_PERSIST_KEY,
  QUERY_RETRY,
  RECEIPT_RETRY_BASE_DELAY_MS,
  RECEIPT_RETRY_COUNT,
  receiptRetryDelay,
} from './constants.ts'

test('chain polling interval is 4000 ms', () => {
  expect(POLLING_INTERVAL_MS).toBe(4000)
})

test('HTTP JSON-RPC time-out is 10 s', () => {
  expect(HTTP_TIMEOUT_MS).toBe(10_000)
})

test('multicall batch size is 1024', () => {
  expect(MULTICALL_BATCH_SIZE).toBe(1024)
})

test('receipt polling retries 6 times, the delay starting at 200 ms and doubling: 200, 400, 800, 1600, 3200, 6400', () => {
  expect(RECEIPT_RETRY_COUNT).toBe(6)
  expect(RECEIPT_RETRY_BASE_DELAY_MS).toBe(200)
  const delays = Array.from({ length: RECEIPT_RETRY_COUNT }, (_, count) => receiptRetryDelay({ count }))
  expect(delays).toEqual([200, 400, 800, 1600, 3200, 6400])
})

test('a transaction counts as confirmed after 1 confirmation', () => {
  expect(DEFAULT_CONFIRMATIONS).toBe(1)
})

test("query cache: kept one day, no retries, offline-first, persisted under the key 'cache'", () => {
  expect(QUERY_GC_TIME_MS).toBe(86_400_000)
  expect(QUERY_RETRY).toBe(0)
  expect(QUERY_NETWORK_MODE).toBe('offlineFirst')
  expect(QUERY_PERSIST_KEY).toBe('cache')
})
