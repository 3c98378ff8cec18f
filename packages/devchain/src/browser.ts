// The one entry the web app bundles (its development wallet): browser-safe, with no node: import and
// nothing that starts a process. Everything else in this package is for tests, scripts and the demo.
// The package declares no side effects, so a chunk that imports one name from here gets only that
// name's module: the keys stay in the dev wallet's signing chunk, loaded on its first signature.
export { type AnvilAccount, anvilAccounts } from './accounts.ts'
export {
  type AnvilProvider,
  createAnvilProvider,
  type WalletSignerRequest,
} from './wallet/anvil-provider.ts'
