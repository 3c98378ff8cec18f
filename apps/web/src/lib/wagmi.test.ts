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

describe('createWagmiConfig: a chain on a WebSocket RPC', () => {
  const wsConfig = publicConfigSchema.parse({
    ...config,
    chains: [{ id: 100, name: 'Gnosis', rpcUrl: 'wss://gnosis.example/ws' }, ...config.chains],
  })
  const wagmiConfig = createWagmiConfig(wsConfig)

  test('talks JSON-RPC over a WebSocket to its wss:// URL, still polled every 4000 ms; the HTTP chains stay on HTTP', () => {
    const client = wagmiConfig.getClient({ chainId: 100 })
    expect(client.transport).toMatchObject({ key: 'webSocket', name: 'WebSocket JSON-RPC' })
    expect(client.pollingInterval).toBe(4000)
    expect(wagmiConfig.getClient({ chainId: 1 }).transport).toMatchObject({ type: 'http' })
  })

  test('the chain names the URL as a WebSocket one and gives a wallet no HTTP URL to add the network with', () => {
    expect(wagmiConfig.chains[0]?.rpcUrls.default).toEqual({
      http: [],
      webSocket: ['wss://gnosis.example/ws'],
    })
  })
})
