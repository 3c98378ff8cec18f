import { POPULAR_WALLET_IDS } from '@guildhall/core'
import { mainnet, sepolia } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { parseEnv } from '../../settings/env.ts'
import { contentSecurityPolicy, ENS_AVATAR_GATEWAYS, WALLET_SDK_HOSTS } from './csp.ts'

const LOCAL = {
  PUBLIC_ORIGIN: 'https://dao.example',
  CHAIN_IDS: '31337',
  RPC_URL_31337: 'http://127.0.0.1:8545',
}
const policy = (env: Record<string, string | undefined>) => contentSecurityPolicy(parseEnv(env))
const WC = WALLET_SDK_HOSTS.walletConnect
const CB = WALLET_SDK_HOSTS.coinbase
const MM = WALLET_SDK_HOSTS.metaMaskSdk
const sdkConnectHosts = [...WC.connect, ...CB.connect, ...MM.connect]

describe('contentSecurityPolicy', () => {
  test('a local chain and the injected wallet only: everything is our own origin, no SDK host, no frame', () => {
    expect(policy({ ...LOCAL, WALLETS: 'injected' })).toEqual({
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      connectSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'"],
      frameSrc: ["'none'"],
      workerSrc: ["'self'"],
      frameAncestors: ["'self'", 'https://app.safe.global'],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
      formAction: ["'self'"],
    })
  })

  test('scripts are our own files only: no inline script, no eval, no other host; our WebAssembly may compile', () => {
    for (const env of [{ ...LOCAL, WALLETS: 'injected' }, { WALLETCONNECT_PROJECT_ID: 'x' }]) {
      expect(policy(env).scriptSrc).toEqual(["'self'", "'wasm-unsafe-eval'"])
    }
  })

  test('a remote RPC is listed by its origin (its path, which may hold a key, is not); a proxied one is self', () => {
    const directives = policy({
      ...LOCAL,
      CHAIN_IDS: '31337,10',
      RPC_URL_10: 'https://opt-mainnet.example.com/v2/secret-key',
      CHAIN_NAME_10: 'OP Mainnet',
      WALLETS: 'injected',
    })
    expect(directives.connectSrc).toEqual(["'self'", 'https://opt-mainnet.example.com'])
    expect(directives.connectSrc?.join(' ')).not.toContain('secret-key')
  })

  test('a WebSocket RPC is listed by its wss:// origin; a loopback ws:// one is proxied over HTTP, so self', () => {
    const directives = policy({
      ...LOCAL,
      CHAIN_IDS: '31337,100',
      RPC_URL_31337: 'ws://127.0.0.1:8545',
      RPC_URL_100: 'wss://gnosis.example:8443/ws/secret-key',
      WALLETS: 'injected',
    })
    expect(directives.connectSrc).toEqual(["'self'", 'wss://gnosis.example:8443'])
    expect(directives.connectSrc?.join(' ')).not.toContain('secret-key')
  })

  test('WalletConnect-based wallets (Rainbow, MetaMask, WalletConnect) each bring the WalletConnect hosts and its verify iframe', () => {
    for (const wallet of ['rainbow', 'metaMask', 'walletConnect']) {
      const directives = policy({ ...LOCAL, WALLETS: wallet, WALLETCONNECT_PROJECT_ID: 'x' })
      expect(directives.connectSrc).toEqual(expect.arrayContaining([...WC.connect]))
      expect(directives.connectSrc).toContain('wss://relay.walletconnect.org')
      expect(directives.frameSrc).toEqual([
        'https://verify.walletconnect.org',
        'https://verify.walletconnect.com',
      ])
      expect(directives.imgSrc).toEqual(["'self'", 'data:', 'blob:', 'https://api.web3modal.org'])
      expect(directives.connectSrc).not.toEqual(expect.arrayContaining([CB.connect[0]]))
    }
  })

  test('MetaMask also brings the MetaMask SDK socket server; Rainbow and WalletConnect do not', () => {
    expect(policy({ ...LOCAL, WALLETS: 'metaMask', WALLETCONNECT_PROJECT_ID: 'x' }).connectSrc).toEqual([
      "'self'",
      ...WC.connect,
      ...MM.connect,
    ])
    for (const wallet of ['rainbow', 'walletConnect']) {
      const connectSrc = policy({ ...LOCAL, WALLETS: wallet, WALLETCONNECT_PROJECT_ID: 'x' }).connectSrc
      for (const host of MM.connect) expect(connectSrc).not.toContain(host)
    }
  })

  test('Coinbase brings its RPC and WalletLink hosts only, and no frame', () => {
    const directives = policy({ ...LOCAL, WALLETS: 'coinbase' })
    expect(directives.connectSrc).toEqual([
      "'self'",
      'https://rpc.wallet.coinbase.com',
      'https://www.walletlink.org',
      'wss://www.walletlink.org',
    ])
    expect(directives.frameSrc).toEqual(["'none'"])
  })

  test('Safe, Brave and the injected wallet need no host', () => {
    const directives = policy({ ...LOCAL, WALLETS: 'injected,safe,brave' })
    expect(directives.connectSrc).toEqual(["'self'"])
    expect(directives.frameSrc).toEqual(["'none'"])
  })

  test('every wallet, on the default chains (mainnet first): SDK hosts once each, mainnet and Sepolia RPCs, ENS avatar gateways', () => {
    const directives = policy({ WALLETS: POPULAR_WALLET_IDS.join(','), WALLETCONNECT_PROJECT_ID: 'x' })
    expect(directives.connectSrc).toEqual([
      "'self'",
      new URL(mainnet.rpcUrls.default.http[0]).origin,
      new URL(sepolia.rpcUrls.default.http[0]).origin,
      ...sdkConnectHosts,
      ...ENS_AVATAR_GATEWAYS,
    ])
    expect(directives.imgSrc).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://api.web3modal.org',
      ...ENS_AVATAR_GATEWAYS,
    ])
  })

  test('ENS avatar gateways only when Ethereum mainnet is configured (RainbowKit looks avatars up there only)', () => {
    const sepoliaOnly = policy({ CHAIN_IDS: '11155111', WALLETS: 'injected' })
    for (const gateway of ENS_AVATAR_GATEWAYS) {
      expect(sepoliaOnly.imgSrc).not.toContain(gateway)
      expect(sepoliaOnly.connectSrc).not.toContain(gateway)
    }
  })

  test('the configured avatar gateways, by origin, in img-src only when names are on (ENS_RPC_URL): the page loads avatars from nowhere else', () => {
    const gateways = {
      IPFS_GATEWAYS: 'https://ipfs.example/prefix, http://127.0.0.1:9000',
      ARWEAVE_GATEWAYS: 'https://arweave.example',
    }
    const on = policy({ ...LOCAL, WALLETS: 'injected', ENS_RPC_URL: 'https://eth.example/key', ...gateways })
    expect(on.imgSrc).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https://ipfs.example',
      'http://127.0.0.1:9000',
      'https://arweave.example',
    ])
    // The browser never talks to the ENS RPC: only the server does.
    expect(on.connectSrc).toEqual(["'self'"])
    const off = policy({ ...LOCAL, WALLETS: 'injected', ...gateways })
    expect(off.imgSrc).toEqual(["'self'", 'data:', 'blob:'])
  })

  test('frame-ancestors, base-uri, object-src and form-action do not depend on the settings', () => {
    for (const env of [{ ...LOCAL, WALLETS: 'injected' }, { WALLETCONNECT_PROJECT_ID: 'x' }]) {
      expect(policy(env)).toMatchObject({
        frameAncestors: ["'self'", 'https://app.safe.global'],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
      })
    }
  })
})
