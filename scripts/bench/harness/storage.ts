// A section's database (a PGlite folder or a PostgreSQL URL) made ready in the bench's own process before any
// server runs on it: migrated, with the demo token's index of the section's chain on it.
import { type Database, openDatabase } from '@guildhall/api/database'
import { demoTokenIndex } from '@guildhall/api/testbed'
import { MULTICALL3_ADDRESS } from '@guildhall/core'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { PublicClient } from 'viem'

export type Storage = { dataDir: string } | { databaseUrl: string }

/**
 * Opens `storage`, migrates it and runs `use` with the token index of `chain` on it (balances read through
 * Multicall3, `maxRange` blocks per eth_getLogs); closes the database whatever `use` does.
 */
export async function withIndexedDatabase<T>(
  chain: { client: PublicClient; deployment: DemoDeployment },
  storage: Storage,
  maxRange: number,
  use: (database: Database, index: ReturnType<typeof demoTokenIndex>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(storage)
  try {
    await database.migrate()
    const index = demoTokenIndex(
      { db: database.db, client: chain.client, deployment: chain.deployment },
      { multicall3: MULTICALL3_ADDRESS, maxRange },
    )
    return await use(database, index)
  } finally {
    await database.close()
  }
}
