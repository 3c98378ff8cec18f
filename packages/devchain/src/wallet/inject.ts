import { type AnvilProviderOptions, createAnvilProvider } from './anvil-provider.ts'

// A signer is code with its own imports, which cannot travel in a serialised init script.
export type TestWalletInjectOptions = Omit<AnvilProviderOptions, 'signer'> & {
  /** EIP-6963 display name (default 'Test Wallet'). */
  name?: string
  /** EIP-6963 uuid (default: a fresh v4 uuid per generated script). */
  uuid?: string
  /** EIP-6963 rdns (default 'dev.guildhall.testwallet'). */
  rdns?: string
  /** EIP-6963 icon, must be a data: URI (default: a small SVG). */
  icon?: string
  /** Announce via EIP-6963 only; leave `window.ethereum` unset. */
  announceOnly?: boolean
  /** Inject nothing: the "no wallet installed" case. */
  absent?: boolean
  /** Keep connection, accounts and chain across reloads in localStorage (default true, like MetaMask). */
  persist?: boolean
  /** Flags set true on the provider, as wallets name themselves on it (e.g. `isBraveWallet` in Brave). */
  flags?: string[]
}

/** localStorage key of the persisted wallet state. */
export const TEST_WALLET_STORAGE_KEY = '__testWallet'
export const TEST_WALLET_RDNS = 'dev.guildhall.testwallet'

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="8" fill="#5b3df5"/>' +
  '<path d="M8 11h16v12H8z" fill="#fff"/><circle cx="21" cy="17" r="2" fill="#5b3df5"/></svg>'
export const TEST_WALLET_ICON = `data:image/svg+xml;base64,${btoa(ICON_SVG)}`

/** Returns the source of a Playwright init script that installs the test wallet in the page. */
export function testWalletInitScript(options: TestWalletInjectOptions): string {
  if (options.absent) return '/* test wallet: absent */'
  const {
    name = 'Test Wallet',
    uuid = globalThis.crypto.randomUUID(),
    rdns = TEST_WALLET_RDNS,
    icon = TEST_WALLET_ICON,
    announceOnly = false,
    absent: _absent,
    persist = true,
    flags = [],
    ...providerOptions
  } = options
  if (!icon.startsWith('data:image/')) throw new Error('EIP-6963 icon must be a data:image/... URI')
  const providerConfig: AnvilProviderOptions = {
    ...providerOptions,
    ...(persist
      ? { persistKey: providerOptions.persistKey ?? TEST_WALLET_STORAGE_KEY }
      : { persistKey: undefined }),
  }
  const config = { providerConfig, info: { uuid, name, icon, rdns }, announceOnly, flags }

  // `__name` shims esbuild's keepNames helper, which tsx/vite may have put into the serialised function.
  return `(() => {
  if (window.__testWallet) return;
  const __name = (target) => target;
  const createAnvilProvider = ${createAnvilProvider.toString()};
  const config = ${JSON.stringify(config)};
  const provider = createAnvilProvider(config.providerConfig);
  for (const flag of config.flags) provider[flag] = true;
  window.__testWallet = provider.control;
  window.__testWalletProvider = provider;
  if (!config.announceOnly) {
    // Deliberately no isMetaMask: RainbowKit/wagmi must see a generic injected wallet.
    window.ethereum = provider;
    window.dispatchEvent(new Event('ethereum#initialized'));
  }
  const detail = Object.freeze({ info: Object.freeze(config.info), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`
}
