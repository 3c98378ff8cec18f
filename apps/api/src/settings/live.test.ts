// LIVE_STREAMS_PER_CLIENT and LIVE_MAX_STREAMS (live.ts): the caps on open live streams.
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

describe('parseEnv: LIVE_STREAMS_PER_CLIENT and LIVE_MAX_STREAMS', () => {
  const local = { ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' }

  test('default: 16 streams per client address and 5,000 per instance; each takes a whole number', () => {
    expect(parseEnv(local).live).toEqual({ streamsPerClient: 16, maxStreams: 5_000 })
    expect(parseEnv({ ...local, LIVE_STREAMS_PER_CLIENT: '4', LIVE_MAX_STREAMS: '20000' }).live).toEqual({
      streamsPerClient: 4,
      maxStreams: 20_000,
    })
  })

  test('parameters: a cap below 1, a fraction or a word is refused by name', () => {
    for (const name of ['LIVE_STREAMS_PER_CLIENT', 'LIVE_MAX_STREAMS']) {
      for (const value of ['0', '-3', '1.5', 'many']) {
        expect(envError({ ...local, [name]: value }).message, `${name}=${value}`).toContain(`- ${name}:`)
      }
    }
  })
})
