// @guildhall/api/demo: the local demo for `npm start`, `npm run cluster`, the bench and e2e: anvil with the
// demo DAO and its treasury, the app's environment for it, and its seeded proposals and votes.

export { seedDemoDatabase } from './governance-seed.ts'
export {
  type DemoChain,
  demoChainGenesis,
  demoEnv,
  nameServiceEnv,
  startChain,
  startDemoChain,
  testEnv,
} from './local-chain.ts'
export { seedDemoInChild } from './seed-process.ts'
