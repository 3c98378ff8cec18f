// "Discussion keys" beside "Your sessions": the member's keys as the API lists them, this browser's
// marked, and a revocation signed by the member's wallet (the development wallet, anvil's public keys),
// checked here as the server checks it; the revoked key is forgotten by this browser. A local HTTP server
// stands in for the API.
import { governanceDomain, keyRevocationTypedData, publicConfigSchema } from '@guildhall/core'
import { anvilAccounts } from '@guildhall/devchain/browser'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { type Address, type Chain, http, verifyTypedData } from 'viem'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { createConfig, WagmiProvider } from 'wagmi'
import { connect, disconnect } from 'wagmi/actions'
import { injected } from 'wagmi/connectors'
import { toViemChain } from '../../lib/chains.ts'
import { createDevWalletProvider } from '../../lib/dev-wallet.ts'
import { PublicConfigProvider } from '../../lib/public-config-context.tsx'
import { type DroppingServer, startDroppingServer } from '../../test/dropping-server.ts'
import { loadKey } from './discussion-key.ts'
import { DiscussionKeys } from './keys-list.tsx'

const DEAD_RPC = 'http://127.0.0.1:1'
const ADA = anvilAccounts[1]?.address as Address
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const CHAIN_ID = 31337
const HERE = anvilAccounts[5]?.address as Address
const ELSEWHERE = anvilAccounts[6]?.address as Address
const OLD = anvilAccounts[7]?.address as Address

const config = publicConfigSchema.parse({
  dao: { name: 'Guildhall DAO' },
  appUrl: 'http://127.0.0.1:3000',
  chains: [{ id: CHAIN_ID, name: 'Local chain', rpcUrl: DEAD_RPC, blockExplorerUrl: null }],
  token: { address: TOKEN, chainId: CHAIN_ID },
  wallets: ['injected'],
})
const wallet = createDevWalletProvider({ accounts: [{ address: ADA, label: 'Ada' }], chains: config.chains })
const wagmiConfig = createConfig({
  chains: config.chains.map(toViemChain) as [Chain, ...Chain[]],
  connectors: [
    injected({
      target: () => ({ id: 'development', name: 'Development wallet', provider: wallet as never }),
    }),
  ],
  transports: { [CHAIN_ID]: http(DEAD_RPC) },
  storage: null,
})

const now = Math.floor(Date.now() / 1000)
const row = (key: Address, overrides: { expires?: number; revokedAt?: number | null } = {}) => ({
  key,
  member: ADA,
  scopes: ['comment', 'react', 'flag', 'moderate'],
  expires: now + 86_400,
  createdAt: now - 3_600,
  revokedAt: null,
  logSeq: 1,
  ...overrides,
})

let server: DroppingServer
let queryClient: QueryClient

beforeEach(async () => {
  localStorage.clear()
  server = await startDroppingServer()
  queryClient = new QueryClient()
  server.answer(({ method, path, body }) => {
    if (path === '/api/discussion/keys')
      return {
        status: 200,
        body: {
          items: [row(HERE), row(ELSEWHERE), row(OLD, { revokedAt: now - 60, expires: now + 60 })],
        },
      }
    if (method === 'POST' && path === '/api/discussion/keys/revoke') {
      const { message } = JSON.parse(body)
      return { status: 200, body: { key: row(message.key, { revokedAt: message.timestamp }) } }
    }
    if (path.startsWith('/api/names')) return { status: 200, body: { names: [] } }
    return { status: 404, body: { error: 'not_found', message: 'Not here.' } }
  })
})
afterEach(async () => {
  await disconnect(wagmiConfig)
  await server.close()
  queryClient.clear()
})

test('behavior: the member’s keys with their state, this browser’s marked; Revoke asks the wallet to sign a KeyRevocation of that key, and this browser forgets it', async () => {
  const connector = wagmiConfig.connectors[0]
  if (!connector) throw new Error('the wallet connector is missing')
  await connect(wagmiConfig, { connector, chainId: CHAIN_ID })
  localStorage.setItem(
    `guildhall.discussion-key.${CHAIN_ID}.${ADA.toLowerCase()}`,
    JSON.stringify({
      privateKey: `0x${'11'.repeat(32)}`,
      key: HERE,
      expires: now + 86_400,
      scopes: ['comment'],
    }),
  )
  render(
    <WagmiProvider config={wagmiConfig} reconnectOnMount={false}>
      <QueryClientProvider client={queryClient}>
        <PublicConfigProvider config={config}>
          <MemoryRouter>
            <DiscussionKeys />
          </MemoryRouter>
        </PublicConfigProvider>
      </QueryClientProvider>
    </WagmiProvider>,
  )
  const rows = await screen.findAllByTestId('discussion-key')
  expect(rows.map((item) => item.querySelector('code')?.textContent)).toEqual([HERE, ELSEWHERE, OLD])
  expect(within(rows[0] as HTMLElement).getByText('This browser')).toBeTruthy()
  expect(within(rows[1] as HTMLElement).queryByText('This browser')).toBeNull()
  expect(rows[0]?.textContent).toContain('may sign: comment, react, flag, moderate')
  expect(within(rows[2] as HTMLElement).queryByRole('button', { name: /Revoke/ })).toBeNull()
  expect(rows[2]?.textContent).toContain('Revoked')

  fireEvent.click(within(rows[0] as HTMLElement).getByRole('button', { name: `Revoke the key ${HERE}` }))
  expect(await screen.findByText('The key is revoked: it can no longer sign for you.')).toBeTruthy()
  const request = server.received.find((entry) => entry.path === '/api/discussion/keys/revoke')
  const signed = JSON.parse(request?.body ?? '')
  expect(signed.message).toMatchObject({ member: ADA, key: HERE })
  const domain = governanceDomain({ chainId: CHAIN_ID, token: TOKEN })
  expect(
    await verifyTypedData({
      ...keyRevocationTypedData(domain, signed.message),
      address: ADA,
      signature: signed.signature,
    }),
  ).toBe(true)
  await waitFor(() => expect(loadKey(CHAIN_ID, ADA)).toBeNull())
})
