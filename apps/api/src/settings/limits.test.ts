// The limits an operator sets (limits.ts): rate limits, trusted proxies, the snapshot window, timeouts.
import { DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

describe('parseEnv: governance', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

  test('GOVERNANCE_RATE_LIMIT_PER_MINUTE defaults to 120, EXPORT_RATE_LIMIT_PER_MINUTE to 30 and POWER_RATE_LIMIT_PER_MINUTE to 300, take a whole number ≥ 1', () => {
    expect(parseEnv(local)).toMatchObject({
      governanceRateLimitPerMinute: 120,
      exportRateLimitPerMinute: 30,
      powerRateLimitPerMinute: 300,
    })
    expect(
      parseEnv({
        ...local,
        GOVERNANCE_RATE_LIMIT_PER_MINUTE: '5',
        EXPORT_RATE_LIMIT_PER_MINUTE: '7',
        POWER_RATE_LIMIT_PER_MINUTE: '9',
      }),
    ).toMatchObject({
      governanceRateLimitPerMinute: 5,
      exportRateLimitPerMinute: 7,
      powerRateLimitPerMinute: 9,
    })
    for (const name of [
      'GOVERNANCE_RATE_LIMIT_PER_MINUTE',
      'EXPORT_RATE_LIMIT_PER_MINUTE',
      'POWER_RATE_LIMIT_PER_MINUTE',
    ]) {
      for (const value of ['0', '1.5', 'lots']) {
        expect(() => parseEnv({ ...local, [name]: value }), `${name}=${value}`).toThrow(new RegExp(name))
      }
    }
  })

  test('TRUST_PROXY is off by default, else the proxies as IP addresses, CIDR ranges or named ranges; a hop count or anything else is refused', () => {
    expect(parseEnv(local).trustProxy).toBe(false)
    expect(parseEnv({ ...local, TRUST_PROXY: 'off' }).trustProxy).toBe(false)
    expect(
      parseEnv({ ...local, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8, loopback' }).trustProxy,
    ).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback'])
    for (const value of ['1', 'on', 'true', '10.0.0.0/33', '10.0.0.1/8/8', 'proxy.internal', ',']) {
      expect(() => parseEnv({ ...local, TRUST_PROXY: value }), value).toThrow(/TRUST_PROXY/)
    }
  })

  test('SNAPSHOT_MAX_AGE_BLOCKS defaults to DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS (25), takes a whole number from 1 to 10000', () => {
    expect(parseEnv(local).snapshotMaxAgeBlocks).toBe(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS)
    expect(DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS).toBe(25)
    expect(parseEnv({ ...local, SNAPSHOT_MAX_AGE_BLOCKS: '300' }).snapshotMaxAgeBlocks).toBe(300)
    for (const value of ['0', '10001', '2.5', 'many']) {
      expect(() => parseEnv({ ...local, SNAPSHOT_MAX_AGE_BLOCKS: value }), value).toThrow(
        /SNAPSHOT_MAX_AGE_BLOCKS/,
      )
    }
  })
})

describe('parseEnv: timeouts', () => {
  test('default to a 30 s request, 10 s headers and 5 s keep-alive bound', () => {
    expect(parseEnv(base).timeouts).toEqual({ requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000 })
  })

  test('are read from the environment', () => {
    const { timeouts } = parseEnv({
      ...base,
      REQUEST_TIMEOUT_MS: '60000',
      HEADERS_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
    })
    expect(timeouts).toEqual({ requestMs: 60_000, headersMs: 20_000, keepAliveMs: 65_000 })
  })

  test('a headers timeout longer than the request timeout, or a timeout of 0, is refused', () => {
    expect(envError({ ...base, REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '6000' }).message).toContain(
      '- HEADERS_TIMEOUT_MS: must not exceed REQUEST_TIMEOUT_MS',
    )
    expect(envError({ ...base, KEEP_ALIVE_TIMEOUT_MS: '0' }).message).toContain('KEEP_ALIVE_TIMEOUT_MS')
  })
})
