// A fresh, migrated database for integration tests, so the same tests run on both backends:
// - by default an in-memory PGlite (nothing to clean up), loaded from a migrated template made once per
//   process (loading a dump takes well under half the time of a new PGlite's initdb plus the migrations);
// - with TEST_DATABASE_URL=postgres://…, a new database created on that server for this call
//   (`guildhall_test_<pid>_<random>`) and dropped by `close()`.
// A database per call, rather than a schema: the migrations create tables in `public` and their journal in
// the `drizzle` schema, and pg_advisory locks are per database, so only a database isolates all of it
// without rewriting search_path or the migrations. Creating one from template1 takes a few tens of ms.
import { randomBytes } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import pg from 'pg'
import { type Database, migrationsFolder, openDatabase } from './client.ts'

export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined

export type TestDatabase = Database & {
  /** The PostgreSQL database's own URL, for a server started in another process; undefined for PGlite. */
  url: string | undefined
}

export async function testDatabase(): Promise<TestDatabase> {
  const serverUrl = testDatabaseUrl()
  if (!serverUrl) {
    const database = await openDatabase({ loadDataDir: await pgliteTemplate() })
    await database.migrate() // already applied in the template: checks the journal, changes nothing
    return { ...database, url: undefined }
  }
  const name = `guildhall_test_${process.pid}_${randomBytes(6).toString('hex')}`
  await admin(serverUrl, `create database "${name}"`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  let database: Database
  try {
    database = await openDatabase({ databaseUrl: url.toString() })
    await database.migrate()
  } catch (error) {
    await admin(serverUrl, `drop database if exists "${name}" with (force)`)
    throw error
  }
  let dropped = false
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      if (dropped) return
      dropped = true
      await admin(serverUrl, `drop database if exists "${name}" with (force)`)
    },
  }
}

let template: Promise<Blob> | undefined
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const client = await PGlite.create()
    try {
      await migrate(drizzle({ client }), { migrationsFolder })
      return await client.dumpDataDir('none')
    } finally {
      await client.close()
    }
  })()
  template.catch(() => {
    template = undefined
  })
  return template
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}
