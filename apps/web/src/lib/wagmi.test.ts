import { publicConfigSchema } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { createWagmiConfig } from './wagmi.ts'

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [
    { id: 31337, name: 'Local chain', rpcUrl: 'http://127.0.0.1:3000/rpc/31337', testnet: true },
    { id: 1, name: 'Ethereum', rpcUrl: 'https://eth.example/rpc' },
  ],
  // No WalletConnect wallet: nothing in this test may reach WalletConnect's servers.
  wallets: ['injected', 'coinbase', 'brave', 'safe'],
})

describe('createWagmiConfig', () => {
  const wagmiConfig = createWagmiConfig(config)

  test('configures exactly the chains of the public config, DAO chain first', () => {
    expect(wagmiConfig.chains.map((chain) => chain.id)).toEqual([31337, 1])
  })

  test('every chain client polls every 4000 ms', () => {
    for (const { id } of config.chains) {
      expect(wagmiConfig.getClient({ chainId: id }).pollingInterval, String(id)).toBe(4000)
    }
  })

  test('every chain client batches reads into multicalls of at most 1024 calls', () => {
    for (const { id } of config.chains) {
      expect(wagmiConfig.getClient({ chainId: id }).batch?.multicall, String(id)).toEqual({ batchSize: 1024 })
    }
  })

  test('every chain talks JSON-RPC over HTTP to the configured URL with a 10 s time-out', () => {
    for (const { id, rpcUrl } of config.chains) {
      const { transport } = wagmiConfig.getClient({ chainId: id })
      expect(transport, String(id)).toMatchObject({ type: 'http', url: rpcUrl, timeout: 10_000 })
    }
  })
})
