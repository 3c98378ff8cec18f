// Real Safe smart accounts on the development chain (`@guildhall/devchain/safe`): the official Safe v1.5.0
// contracts, byte for byte from `@safe-global/safe-smart-account`'s build artifacts, at their canonical
// addresses. Its parts are in safe/: contracts.ts (ABIs, artifacts, addresses), relayer.ts (who sends),
// deploy.ts (the demo's sign-in Safes), signatures.ts (how a Safe signs), versions.ts (v1.3.0 and v1.4.1, for
// tests; executing a Safe transaction), treasury.ts and treasury-history.ts (the demo DAO's treasury Safe, its
// tokens and its history).
export {
  compatibilityFallbackHandlerAbi,
  ERC1271_MAGIC_VALUE,
  expectedRuntimeCode,
  predictSafeAddress,
  SAFE_CONTRACT_NAMES,
  SAFE_SINGLETON_FACTORY,
  SAFE_VERSION,
  type SafeContracts,
  SELF_ADDRESS_IMMUTABLES,
  safeAbi,
  safeArtifact,
  safeContractAddresses,
  safeInitializer,
  safeProxyFactoryAbi,
  signMessageLibAbi,
} from './safe/contracts.ts'
export { type DemoSafe, demoSafes, deploySafes, type SafeDeployment } from './safe/deploy.ts'
export { safeRelayer } from './safe/relayer.ts'
export {
  type ApprovedHash,
  approveHashOnChain,
  type SafeOwnerSigner,
  safeMessageHash,
  signHashAsSafe,
  signMessageAsSafe,
  signMessageAsUndeployedSafe,
} from './safe/signatures.ts'
export {
  DEMO_TREASURY_FUNDING,
  DEMO_USDG,
  type DemoTreasury,
  demoTreasurySafe,
  demoUsdgAddress,
  deployDemoTreasury,
} from './safe/treasury.ts'
export {
  buildDemoTreasuryHistory,
  DEMO_PAYEES,
  DEMO_TREASURY_AGE_DAYS,
  DEMO_TREASURY_HISTORY,
  ensureDemoTreasury,
} from './safe/treasury-history.ts'
export {
  type CreatedSafe,
  createSafeOfVersion,
  DETERMINISTIC_DEPLOYMENT_PROXY,
  deployOlderSafe,
  executeSafeTransaction,
  type OlderSafeContracts,
  type OlderSafeVersion,
  olderSafeAddresses,
  olderSafeArtifact,
  type SafeTransactionFields,
  type SafeVersion,
} from './safe/versions.ts'
