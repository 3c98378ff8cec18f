// parseEnv as a whole: every problem of an environment in one EnvError, and the origin the app is served on.
import { MISSING_PROJECT_ID_MESSAGE } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'

describe('parseEnv', () => {
  test('problems of different kinds (a bad variable, missing chain variables, no project id) come in one list', () => {
    const { message } = envError({ PORT: 'x', CHAIN_IDS: '31338', RPC_URL_31338: 'not a url' })
    expect(message.split('\n')).toEqual([
      'Invalid configuration:',
      '- PORT: Invalid input: expected number, received NaN',
      '- RPC_URL_31338: must be an http(s) or ws(s) URL',
      '- CHAIN_NAME_31338: required for chain 31338 (not a chain Guildhall knows by id)',
      `- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`,
    ])
  })

  test('several invalid variables at once are all listed in one EnvError', () => {
    const error = envError({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      CHAIN_IDS: '1,abc',
      WALLETS: 'injected,phantom',
      TOKEN_ADDRESS: '0x1234',
      ACCENT_COLOR: 'blue',
      LEARN_MORE_URL: 'not a url',
    })
    const lines = error.message.split('\n')
    expect(lines[0]).toBe('Invalid configuration:')
    for (const variable of [
      'PORT',
      'LOG_LEVEL',
      'CHAIN_IDS.1',
      'WALLETS.1',
      'TOKEN_ADDRESS',
      'ACCENT_COLOR',
      'LEARN_MORE_URL',
    ]) {
      expect(
        lines.filter((line) => line.startsWith(`- ${variable}: `)),
        variable,
      ).toHaveLength(1)
    }
    expect(lines).toHaveLength(8)
    expect(error.message).toContain('- CHAIN_IDS.1: must be a positive chain id')
    expect(error.message).toContain('- TOKEN_ADDRESS: must be a 0x-prefixed 20-byte address')
    expect(error.message).toContain('- ACCENT_COLOR: must be a hex colour of 3 or 6 digits, like #0e76fd')
  })

  test('PUBLIC_ORIGIN, without its trailing slash, is the origin of proxied RPC URLs and the app URL', () => {
    const { chains, publicConfig } = parseEnv({
      ...base,
      PUBLIC_ORIGIN: 'https://dao.example/',
      CHAIN_IDS: '31337',
      RPC_URL_31337: 'http://[::1]:8545',
    })
    expect(chains[0]?.rpcUrl).toBe('https://dao.example/rpc/31337')
    expect(publicConfig.appUrl).toBe('https://dao.example')
  })
})
