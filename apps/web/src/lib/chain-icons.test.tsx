import { publicConfigSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/accounts'
import { ConnectButton, RainbowKitProvider } from '@rainbow-me/rainbowkit'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, waitFor } from '@testing-library/react'
import type { Chain } from 'viem'
import { afterEach, describe, expect, test } from 'vitest'
import { createConfig, http, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { mock } from 'wagmi/connectors'
import { toViemChain } from './chains.ts'

// Nothing listens on port 1: any RPC call fails at once, never leaves the machine.
const DEAD_RPC = 'http://127.0.0.1:1'
const ACCOUNT = anvilAccounts[1]?.address as `0x${string}`

// The chains as the server describes them (ids viem and RainbowKit know, and one neither knows), one on wss://.
const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [
    { id: 10, name: 'OP Mainnet', rpcUrl: 'wss://optimism.example/ws' },
    { id: 8453, name: 'Base', rpcUrl: DEAD_RPC },
    { id: 31338, name: 'Guildhall Testnet', rpcUrl: DEAD_RPC },
  ],
  wallets: ['injected'],
})
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [mock({ accounts: [ACCOUNT] })],
  transports: Object.fromEntries(config.chains.map((chain) => [chain.id, http(DEAD_RPC)])),
  storage: null,
})

type ButtonChain = { id: number; hasIcon: boolean; iconUrl?: string; iconBackground?: string }

/** The chain RainbowKit's connect button shows, as of its latest render. */
let shown: ButtonChain | undefined

/** Connects on `chainId` and renders RainbowKit's connect button until it shows that chain. */
async function connectOn(chainId: number): Promise<void> {
  const connector = wagmiConfig.connectors[0]
  if (!connector) throw new Error('the mock connector is missing')
  await connect(wagmiConfig, { connector, chainId: chainId as (typeof wagmiConfig.chains)[number]['id'] })
  shown = undefined
  render(
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={new QueryClient()}>
        <RainbowKitProvider>
          <ConnectButton.Custom>
            {({ chain }) => {
              shown = chain
              return null
            }}
          </ConnectButton.Custom>
        </RainbowKitProvider>
      </QueryClientProvider>
    </WagmiProvider>,
  )
  await waitFor(() => expect(shown?.id).toBe(chainId))
}

afterEach(async () => {
  await disconnect(wagmiConfig)
})

describe('chain icons', () => {
  test('behavior: RainbowKit shows its own icon for a chain id it knows, on our chain objects (wss:// RPC or not)', async () => {
    for (const id of [10, 8453]) {
      await connectOn(id)
      expect(shown?.hasIcon, String(id)).toBe(true)
      // RainbowKit loads the icon itself (its own chunk per chain) and hands over its data URL.
      await waitFor(() => expect(shown?.iconUrl, String(id)).toMatch(/^data:image\/svg\+xml/))
      await disconnect(wagmiConfig)
    }
  })

  test('default: a chain id RainbowKit does not know has no icon (its name is shown instead)', async () => {
    await connectOn(31338)
    expect(shown).toMatchObject({ id: 31338, hasIcon: false })
  })
})
