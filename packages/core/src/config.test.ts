import { describe, expect, test } from 'vitest'
import {
  formatIssues,
  MISSING_PROJECT_ID_MESSAGE,
  type PublicConfigInput,
  publicConfigSchema,
} from './config.ts'
import { POPULAR_WALLET_IDS } from './constants.ts'

const HEX_MESSAGE = 'must be a hex colour of 3 or 6 digits, like #0e76fd'

/** A minimal valid config: one chain, wallets that need no WalletConnect project id. */
function input(overrides: Partial<PublicConfigInput> & Record<string, unknown> = {}): PublicConfigInput {
  return {
    dao: { name: 'Guildhall DAO' },
    appUrl: 'http://localhost:3000',
    chains: [{ id: 31337, name: 'Local chain', rpcUrl: 'http://localhost:3000/rpc/31337' }],
    wallets: ['injected', 'coinbase', 'brave', 'safe'],
    ...overrides,
  }
}

/** The issues of a failed parse as `path: message`. */
function issues(value: unknown): string[] {
  const result = publicConfigSchema.safeParse(value)
  if (result.success) return []
  return result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)
}

describe('publicConfigSchema', () => {
  test('a minimal config is valid and gets the documented defaults', () => {
    const config = publicConfigSchema.parse(input())
    expect(config.accentColor).toBe('#0a66d9')
    expect(config.walletConnectProjectId).toBeNull()
    expect(config.token).toBeNull()
    expect(config.devWallet).toBeNull()
    expect(config.chains[0]).toMatchObject({
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      blockExplorerUrl: null,
      testnet: false,
    })
  })

  test('accent colours of 3 or 6 hex digits, either case, are accepted', () => {
    for (const accentColor of ['#0e76fd', '#0E76FD', '#abc', '#ABC', '#000000', '#fff']) {
      expect(issues(input({ accentColor })), accentColor).toEqual([])
    }
  })

  test('any other accent colour is rejected with the hex message', () => {
    for (const accentColor of [
      'blue',
      '0e76fd',
      '#0e76f',
      '#0e76fdd',
      '#abcd',
      '#ggg',
      '#',
      '',
      'rgb(0,0,0)',
    ]) {
      expect(issues(input({ accentColor })), accentColor).toEqual([`accentColor: ${HEX_MESSAGE}`])
    }
  })

  test('every WalletConnect-based wallet (rainbow, metaMask, walletConnect) without a project id gives RainbowKit\'s "No projectId found…" message', () => {
    expect(MISSING_PROJECT_ID_MESSAGE).toBe(
      'No projectId found. Every dApp must now provide a WalletConnect Cloud projectId to enable WalletConnect v2 https://www.rainbowkit.com/docs/installation#configure',
    )
    for (const wallet of ['rainbow', 'metaMask', 'walletConnect'] as const) {
      expect(issues(input({ wallets: ['injected', wallet] })), wallet).toEqual([
        `walletConnectProjectId: ${MISSING_PROJECT_ID_MESSAGE}`,
      ])
      expect(issues(input({ wallets: ['injected', wallet], walletConnectProjectId: null })), wallet).toEqual([
        `walletConnectProjectId: ${MISSING_PROJECT_ID_MESSAGE}`,
      ])
    }
  })

  test('the default wallet list (all seven Popular wallets) needs a project id, and is valid with one', () => {
    const { wallets: _omitted, ...withoutWallets } = input()
    expect(issues(withoutWallets)).toEqual([`walletConnectProjectId: ${MISSING_PROJECT_ID_MESSAGE}`])
    const config = publicConfigSchema.parse({ ...withoutWallets, walletConnectProjectId: 'abc123' })
    expect(config.wallets).toEqual([...POPULAR_WALLET_IDS])
  })

  test('wallets without WalletConnect (injected, coinbase, brave, safe) are valid without a project id', () => {
    const config = publicConfigSchema.parse(input({ wallets: ['injected', 'coinbase', 'brave', 'safe'] }))
    expect(config.walletConnectProjectId).toBeNull()
    expect(config.wallets).toEqual(['injected', 'coinbase', 'brave', 'safe'])
  })

  test('an empty project id is refused', () => {
    expect(issues(input({ wallets: ['walletConnect'], walletConnectProjectId: '' }))).toContain(
      'walletConnectProjectId: Too small: expected string to have >=1 characters',
    )
  })

  test('an empty chain list gives "No chains found on connector."', () => {
    expect(issues(input({ chains: [] }))).toEqual(['chains: No chains found on connector.'])
  })

  test("a chain's RPC URL is http(s) or ws(s), nothing else", () => {
    for (const rpcUrl of [
      'https://eth.example',
      'http://127.0.0.1:3000/rpc/1',
      'wss://eth.example/ws',
      'ws://127.0.0.1:8545',
    ]) {
      expect(issues(input({ chains: [{ id: 1, name: 'Ethereum', rpcUrl }] })), rpcUrl).toEqual([])
    }
    for (const rpcUrl of ['ftp://eth.example', 'javascript:alert(1)']) {
      expect(issues(input({ chains: [{ id: 1, name: 'Ethereum', rpcUrl }] })), rpcUrl).toEqual([
        'chains.0.rpcUrl: Invalid URL',
      ])
    }
  })

  test('unknown fields are rejected at the top level and inside chains, the DAO and the dev wallet (strict)', () => {
    expect(issues(input({ theme: 'dark' }))).toEqual([': Unrecognized key: "theme"'])
    expect(issues(input({ dao: { name: 'x', logo: 'y' } as never }))).toEqual([
      'dao: Unrecognized key: "logo"',
    ])
    expect(
      issues(
        input({ chains: [{ id: 1, name: 'Ethereum', rpcUrl: 'https://eth.example', icon: 'x' } as never] }),
      ),
    ).toEqual(['chains.0: Unrecognized key: "icon"'])
    expect(
      issues(
        input({
          devWallet: {
            accounts: [
              { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', label: null, privateKey: '0x1' },
            ],
          } as never,
        }),
      ),
    ).toEqual(['devWallet.accounts.0: Unrecognized key: "privateKey"'])
  })

  test('a wallet listed twice and an unknown wallet id are rejected', () => {
    expect(issues(input({ wallets: ['injected', 'injected'] }))).toEqual(['wallets: lists a wallet twice'])
    expect(issues(input({ wallets: ['phantom' as never] }))).toHaveLength(1)
    expect(issues(input({ wallets: ['phantom' as never] }))[0]).toMatch(/^wallets\.0: /)
  })

  test('formatIssues lists every problem on its own line with its path', () => {
    const result = publicConfigSchema.safeParse(input({ chains: [], accentColor: 'blue', extra: 1 }))
    expect(result.success).toBe(false)
    if (result.success) return
    expect(formatIssues(result.error).split('\n').sort()).toEqual(
      [
        '- (root): Unrecognized key: "extra"',
        '- chains: No chains found on connector.',
        `- accentColor: ${HEX_MESSAGE}`,
      ].sort(),
    )
  })
})
