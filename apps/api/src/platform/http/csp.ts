import { WALLET_CONNECT_WALLET_IDS } from '@guildhall/core'
import type { Settings } from '../../settings/env.ts'

/**
 * Hosts the wallet SDKs reach from the page, read from the pinned SDK sources (ADR 016). A wallet that is
 * not configured never loads its SDK, so its hosts stay out of the policy.
 */
export const WALLET_SDK_HOSTS = {
  /**
   * @walletconnect/core 2.21.1: the relay (Relayer's default relayUrl), the verify server and its
   * attestation iframe (VERIFY_SERVER; both verify hosts are on its trusted list), the event client
   * (pulse); @walletconnect/universal-provider: its default RPC for chains without one; @reown/appkit
   * (WalletConnect's own modal, for the WalletConnect wallet's "Open" button): its API and wallet images.
   */
  walletConnect: {
    connect: [
      'wss://relay.walletconnect.org',
      'https://verify.walletconnect.org',
      'https://verify.walletconnect.com',
      'https://pulse.walletconnect.org',
      'https://rpc.walletconnect.org',
      'https://api.web3modal.org',
    ],
    frame: ['https://verify.walletconnect.org', 'https://verify.walletconnect.com'],
    img: ['https://api.web3modal.org'],
  },
  /**
   * @coinbase/wallet-sdk 4.3.6: its RPC (CB_WALLET_RPC_URL) and the WalletLink relay (WALLETLINK_URL, over
   * HTTP and a WebSocket). keys.coinbase.com opens in a popup, which the page's CSP does not govern; its
   * telemetry (cca-lite.coinbase.com, an inline script) is switched off by RainbowKit.
   */
  coinbase: {
    connect: ['https://rpc.wallet.coinbase.com', 'https://www.walletlink.org', 'wss://www.walletlink.org'],
    frame: [],
    img: [],
  },
  /**
   * @metamask/sdk 0.33.1 (RainbowKit uses it on phones and with the extension, headless and without
   * analytics): its socket server (DEFAULT_SERVER_URL, socket.io over HTTP then a WebSocket).
   */
  metaMaskSdk: {
    connect: ['https://metamask-sdk.api.cx.metamask.io', 'wss://metamask-sdk.api.cx.metamask.io'],
    frame: [],
    img: [],
  },
} as const

/**
 * viem's default gateways for ENS avatars (ipfs:// and ar:// records), which RainbowKit looks up only when
 * Ethereum mainnet is configured. Avatars on any other host are refused, and RainbowKit draws its own.
 */
export const ENS_AVATAR_GATEWAYS = ['https://ipfs.io', 'https://arweave.net']
const MAINNET_ID = 1

type PolicySettings = Pick<Settings, 'chains' | 'nameService'> & {
  publicConfig: Pick<Settings['publicConfig'], 'wallets' | 'appUrl'>
}

/** The Content-Security-Policy directives (helmet's camelCase keys) for these settings. */
export function contentSecurityPolicy(settings: PolicySettings): Record<string, string[]> {
  const { wallets, appUrl } = settings.publicConfig
  const sdks = [
    ...(wallets.some((id) => WALLET_CONNECT_WALLET_IDS.includes(id)) ? [WALLET_SDK_HOSTS.walletConnect] : []),
    ...(wallets.includes('coinbase') ? [WALLET_SDK_HOSTS.coinbase] : []),
    ...(wallets.includes('metaMask') ? [WALLET_SDK_HOSTS.metaMaskSdk] : []),
  ]
  // Chains on loopback are served through our own /rpc/<id> ('self'); a remote RPC is named by its origin
  // (its path may hold an API key, which the header need not repeat).
  const rpcOrigins = settings.chains
    .map((chain) => new URL(chain.rpcUrl).origin)
    .filter((rpcOrigin) => rpcOrigin !== new URL(appUrl).origin)
  const ens = settings.chains.some((chain) => chain.id === MAINNET_ID) ? ENS_AVATAR_GATEWAYS : []
  // The server's own avatar URLs (GET /api/names) point only at the configured gateways (names/avatar-url.ts).
  const nameService = settings.nameService
  const avatarGateways = nameService
    ? [...nameService.ipfsGateways, ...nameService.arweaveGateways].map((url) => new URL(url).origin)
    : []
  const unique = (values: string[]) => [...new Set(values)]
  const frames = unique(sdks.flatMap((sdk) => sdk.frame))
  return {
    defaultSrc: ["'self'"],
    // Our own files only: no inline script, no eval. The public config is a <script type="application/json">
    // data block, which is never executed and so is not script in the policy's sense. 'wasm-unsafe-eval'
    // lets our own WebAssembly compile (the recount's signature recovery, ADR 083) and nothing else: it
    // does not allow eval, new Function or string timers.
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    // 'unsafe-inline' for styles only, because three things we ship write <style> elements whose text is
    // made at run time, with no way to give them a nonce or hash: RainbowKit's theme (its colours come
    // from the configuration), react-remove-scroll's scroll lock under every open modal, and the wallet
    // SDKs' own UIs. The first page's CSS is also written into index.html by the build. Styles cannot run
    // script; scripts stay 'self' only.
    styleSrc: ["'self'", "'unsafe-inline'"],
    connectSrc: unique(["'self'", ...rpcOrigins, ...sdks.flatMap((sdk) => sdk.connect), ...ens]),
    imgSrc: unique([
      "'self'",
      'data:',
      'blob:',
      ...sdks.flatMap((sdk) => sdk.img),
      ...ens,
      ...avatarGateways,
    ]),
    fontSrc: ["'self'"],
    frameSrc: frames.length > 0 ? frames : ["'none'"],
    workerSrc: ["'self'"],
    // Safe opens the app in its own iframe; no other site may frame it.
    frameAncestors: ["'self'", 'https://app.safe.global'],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    formAction: ["'self'"],
  }
}
