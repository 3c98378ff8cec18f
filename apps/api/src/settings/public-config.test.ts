// The public config the web app learns (public-config.ts): the WalletConnect project id, the development wallet.
import { MISSING_PROJECT_ID_MESSAGE } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { ADA, BEN, base, envError } from './env-test-helpers.ts'

describe('parseEnv', () => {
  test('WalletConnect wallets without WALLETCONNECT_PROJECT_ID: an EnvError naming WALLETCONNECT_PROJECT_ID with the "No projectId found…" message', () => {
    for (const WALLETS of [undefined, 'injected,walletConnect', 'metaMask', 'rainbow']) {
      const error = envError({ WALLETS })
      expect(error.message, String(WALLETS)).toBe(
        `Invalid configuration:\n- WALLETCONNECT_PROJECT_ID: ${MISSING_PROJECT_ID_MESSAGE}`,
      )
    }
    expect(parseEnv({ WALLETCONNECT_PROJECT_ID: 'abc123' }).publicConfig.walletConnectProjectId).toBe(
      'abc123',
    )
  })

  describe('development wallet', () => {
    const accounts = `${ADA}:Ada, ${BEN}`

    test('offered when the DAO chain is the local chain 31337 on a loopback RPC', () => {
      for (const rpc of ['http://127.0.0.1:8545', 'http://localhost:8545', 'http://[::1]:8545']) {
        const { publicConfig } = parseEnv({
          ...base,
          CHAIN_IDS: '31337',
          RPC_URL_31337: rpc,
          DEV_WALLET_ACCOUNTS: accounts,
        })
        expect(publicConfig.devWallet, rpc).toEqual({
          accounts: [
            { address: ADA, label: 'Ada' },
            { address: BEN, label: null },
          ],
        })
      }
    })

    test('not offered when chain 31337 is reached over a non-loopback RPC', () => {
      const { publicConfig } = parseEnv({
        ...base,
        CHAIN_IDS: '31337',
        RPC_URL_31337: 'https://rpc.example.org',
        DEV_WALLET_ACCOUNTS: accounts,
      })
      expect(publicConfig.devWallet).toBeNull()
    })

    test('not offered when the DAO chain is another chain, even a local one, or 31337 is only a second chain', () => {
      for (const env of [
        { CHAIN_IDS: '1' },
        { CHAIN_IDS: '31338', RPC_URL_31338: 'http://127.0.0.1:9545', CHAIN_NAME_31338: 'Guildhall Testnet' },
        { CHAIN_IDS: '1,31337', RPC_URL_31337: 'http://127.0.0.1:8545' },
      ]) {
        const { publicConfig } = parseEnv({ ...base, ...env, DEV_WALLET_ACCOUNTS: accounts })
        expect(publicConfig.devWallet, env.CHAIN_IDS).toBeNull()
      }
    })

    test('not offered without DEV_WALLET_ACCOUNTS, and an invalid account is reported as DEV_WALLET_ACCOUNTS', () => {
      const local = { ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' }
      expect(parseEnv(local).publicConfig.devWallet).toBeNull()
      expect(envError({ ...local, DEV_WALLET_ACCOUNTS: '0x1234:Broken' }).message).toBe(
        'Invalid configuration:\n- DEV_WALLET_ACCOUNTS (entry 0): must be a 0x-prefixed 20-byte address',
      )
    })
  })
})
