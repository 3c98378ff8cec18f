// Shared by the database layer's tests (client, PGlite, errors, retry-once).
import pg from 'pg'
import { afterEach } from 'vitest'
import type { Database } from './client.ts'
import type { NewSession } from './schema.ts'
import { testDatabaseUrl } from './test-database.ts'

/** A `track` for the calling test file: every database given to it is closed after each test. */
export function trackDatabases() {
  const opened: Database[] = []
  afterEach(async () => {
    // Last opened first: a test database is dropped only after the extra clients on it are closed.
    for (const database of opened.splice(0).reverse()) await database.close()
  })
  return <T extends Database>(database: T): T => {
    opened.push(database)
    return database
  }
}

export const minutes = (n: number) => new Date(Date.now() + n * 60_000)
export const newSession = (overrides: Partial<NewSession> = {}): NewSession => ({
  tokenHash: `hash-${Math.random().toString(16).slice(2)}`,
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  chainId: 31337,
  idleExpiresAt: minutes(60),
  absoluteExpiresAt: minutes(60 * 24 * 7),
  userAgent: 'vitest',
  ...overrides,
})

export const backend = testDatabaseUrl() ? 'postgres' : 'pglite'

// Opening a PGlite runs initdb in WebAssembly: seconds on a busy 2-core machine.
export const slow = { timeout: 60_000 }

/** Ends the session running a statement that contains `marker` on the database at `url`, once it runs (bounded wait). */
export async function terminateWhenRunning(url: string, marker: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  try {
    for (let attempt = 0; attempt < 500; attempt++) {
      const { rows } = await admin.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
           and position($1 in query) > 0`,
        [marker],
      )
      if (rows.some((row) => row.ended)) return
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    throw new Error(`no running statement with ${marker}`)
  } finally {
    await admin.end()
  }
}
