// The demo's seed in a child process (seed-process.ts), as `npm start` runs it on a PGlite data dir and
// `npm run cluster` on PostgreSQL (under TEST_DATABASE_URL): the child migrates and seeds, answers how many
// proposals it made, and exits; the database holds them; a second run makes none; a child that fails says so.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { DemoTreasury } from '@guildhall/devchain/safe'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openDatabase } from '../platform/db/client.ts'
import { proposals } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'
import { startDemoChain, testEnv } from './local-chain.ts'
import { seedDemoInChild } from './seed-process.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let treasury: DemoTreasury
let dataDir: string
let postgres: TestDatabase | undefined

beforeAll(async () => {
  const chain = await startDemoChain({ treasury: true })
  ;({ anvil, deployment } = chain)
  if (!chain.treasury) throw new Error('the demo chain has no treasury')
  treasury = chain.treasury
  dataDir = await mkdtemp(join(tmpdir(), 'guildhall-seed-process-'))
  if (testDatabaseUrl()) postgres = await testDatabase()
}, 60_000)

afterAll(async () => {
  await postgres?.close()
  await anvil?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

/** The proposals the database holds, read here: PGlite's data dir opens at once, the child having closed it. */
async function storedProposals(): Promise<number> {
  const database = postgres ?? (await openDatabase({ dataDir }))
  try {
    return (await database.db.select({ id: proposals.id }).from(proposals)).length
  } finally {
    if (!postgres) await database.close()
  }
}

test('behavior: the demo seed runs in a child process: it migrates and seeds the database the environment names, with the treasury’s proposals, and answers how many it made once it has exited; a second run makes none', async () => {
  const env = {
    ...testEnv(anvil.url, deployment, treasury),
    ...(postgres ? { DATABASE_URL: postgres.url } : { DATA_DIR: dataDir }),
  }
  const target = { safe: treasury.safe.address, usdg: treasury.usdg }
  const seeded = await seedDemoInChild(env, target)
  expect(seeded).toBeGreaterThan(0)
  expect(await storedProposals()).toBe(seeded)
  expect(await seedDemoInChild(env, target)).toBe(0)
  expect(await storedProposals()).toBe(seeded)
}, 240_000)

test('error: a child that cannot seed (its settings invalid) rejects with how it exited, having printed why', async () => {
  await expect(seedDemoInChild({ CHAIN_IDS: '31337', DATA_DIR: dataDir })).rejects.toThrow(
    /^the demo seed exited \(code 1\) without seeding$/,
  )
})
