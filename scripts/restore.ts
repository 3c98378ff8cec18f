// npm run restore -- <file> — puts back a copy `npm run backup` wrote, into the database the server is set to
// use, then checks it and says what it found (ADR 067). It refuses while a server runs on that database, and
// never deletes what is there:
// - the embedded database (DATA_DIR): the copy is unpacked beside the folder and opened first (a file that is
//   not a copy changes nothing); the folder is then moved aside to `<DATA_DIR>.before-restore-<time>` and the
//   copy takes its name;
// - PostgreSQL (DATABASE_URL): `pg_restore` into that database, which must be new and empty (create it with
//   `createdb`): it refuses one that holds tables.
// Then: migrations (a copy of a newer version is refused; older ones are brought up to date as the server
// would at start), the governance log's hash chain, and `tallies:check`.
// Exit code: 0 restored and every check passed; 1 refused (nothing changed) or restored with a finding; 2 it
// could not run.
import { readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import { claimDataDir, type Database, DataDirInUse, openDatabase, PID_FILE } from '@guildhall/api/database'
import { sql } from 'drizzle-orm'
import { runPgTool } from './pg-tools.ts'
import { runCli, serverDatabase } from './run-cli.ts'
import { migrationState, reportLogChain, reportTallies } from './stored-checks.ts'

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')
/** The application_name the server's PostgreSQL connections carry (platform/db/client.ts). */
const SERVER_APPLICATION_NAME = 'guildhall'

class Refused extends Error {}

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  const [file] = args
  if (args.length !== 1 || !file || file.startsWith('-')) {
    console.error('Usage: npm run restore -- <file written by npm run backup>')
    return 2
  }
  const settings = serverDatabase()
  if (!settings) return 2
  const { databaseUrl, dataDir } = settings
  const path = resolve(file)
  await stat(path).catch(() => {
    throw new Error(`${path} does not exist`)
  })
  try {
    return databaseUrl
      ? await restorePostgres(path, databaseUrl)
      : await restorePglite(path, resolve(dataDir as string))
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    console.error(`Refused: ${error.message}`)
    return 1
  }
}

async function restorePglite(file: string, dataDir: string): Promise<number> {
  const existing = await stat(dataDir).then(
    () => true,
    () => false,
  )
  let release: () => Promise<void> = async () => undefined
  if (existing) {
    try {
      release = await claimDataDir(dataDir, 'command')
    } catch (error) {
      if (!(error instanceof DataDirInUse)) throw error
      throw new Refused(
        `a server or command (pid ${error.pid}) is running on ${dataDir}. Stop it first (a backup needs no stop; a restore does). Nothing was changed.`,
      )
    }
  }
  const staging = `${dataDir}.restoring-${stamp()}`
  try {
    // A File named like the copy: PGlite unzips what is named .tar.gz.
    const copy = new File([await readFile(file)], basename(file))
    let database: Database
    try {
      database = await openDatabase({ dataDir: staging, loadDataDir: copy })
    } catch (error) {
      await rm(staging, { recursive: true, force: true })
      throw new Refused(
        `${file} is not a copy of the embedded database (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`,
      )
    }
    // The copy holds the pid of the server it was taken from: not this folder's holder.
    await rm(`${staging}/${PID_FILE}`, { force: true })
    const ok = await checkRestored(database, staging).finally(() => database.close())
    const aside = `${dataDir}.before-restore-${stamp()}`
    if (existing) await rename(dataDir, aside)
    await rename(staging, dataDir)
    console.log(`Restored ${file} into ${dataDir}.${existing ? ` What was there is kept in ${aside}.` : ''}`)
    if (existing) await rm(`${aside}/${PID_FILE}`, { force: true })
    return ok ? 0 : 1
  } catch (error) {
    // Nothing of the staging folder may stay behind a refusal; after the move it is the restored folder.
    if (error instanceof Refused) await rm(staging, { recursive: true, force: true })
    throw error
  } finally {
    await release()
  }
}

async function restorePostgres(file: string, databaseUrl: string): Promise<number> {
  const target = await openDatabase({ databaseUrl })
  try {
    const servers = await target.db.execute<{ count: number }>(
      sql`select count(*)::int as count from pg_stat_activity
          where datname = current_database() and application_name = ${SERVER_APPLICATION_NAME} and pid <> pg_backend_pid()`,
    )
    if ((servers.rows[0]?.count ?? 0) > 0)
      throw new Refused(
        `a server is connected to the database DATABASE_URL names. Stop every instance first (a backup needs no stop; a restore does). Nothing was changed.`,
      )
    const tables = await target.db.execute<{ count: number }>(
      sql`select count(*)::int as count from information_schema.tables
          where table_schema not in ('pg_catalog', 'information_schema')`,
    )
    const count = tables.rows[0]?.count ?? 0
    if (count > 0)
      throw new Refused(
        `the database DATABASE_URL names already holds ${count} tables. Restore into a new, empty database (createdb <name>) and point DATABASE_URL at it; nothing is overwritten. Nothing was changed.`,
      )
  } finally {
    await target.close()
  }
  await runPgTool(
    'pg_restore',
    [
      '--exit-on-error',
      '--no-owner',
      '--no-privileges',
      '--no-password',
      '--single-transaction',
      // The name alone (libpq's variables carry the rest): without it pg_restore prints SQL instead.
      `--dbname=${decodeURIComponent(new URL(databaseUrl).pathname.slice(1))}`,
      file,
    ],
    databaseUrl,
  )
  console.log(`Restored ${file} into the database DATABASE_URL names.`)
  const database = await openDatabase({ databaseUrl })
  try {
    return (await checkRestored(database, 'the database')) ? 0 : 1
  } finally {
    await database.close()
  }
}

/** The restored database's migrations (brought up to date), log chain and tallies; true when all is well. */
async function checkRestored(database: Database, where: string): Promise<boolean> {
  const migrations = await migrationState(database)
  if (migrations.unknown > 0)
    throw new Refused(
      `the copy has ${migrations.unknown} migration(s) this version does not know: it was made by a newer version. Restore it with that version.`,
    )
  if (migrations.pending > 0) await database.migrate()
  console.log(
    migrations.pending > 0
      ? `Migrations: the copy had ${migrations.applied}; the ${migrations.pending} newer ones of this version were applied to ${where}.`
      : `Migrations: all ${migrations.applied} of this version applied.`,
  )
  const chain = await reportLogChain(database.db, console.log)
  const tallies = await reportTallies(database.db, console.log)
  return chain && tallies
}

runCli('The restore', main)
