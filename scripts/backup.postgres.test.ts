// `npm run backup` and `npm run restore` on PostgreSQL (ADR 067): pg_dump's custom format while a real server
// (a child process on the test database) takes signed votes from the demo members, restored with pg_restore
// into a new, empty database: every vote answered 201 before the backup started is there, the log is one chain,
// the tallies equal a recount. A restore into the database a server is connected to is refused, and so is one
// into a database that holds tables. PostgreSQL only (TEST_DATABASE_URL; PG_BIN or PATH for pg_dump).
import { join } from 'node:path'
import { stopApiProcess } from '@guildhall/api/testbed'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  backupBed,
  backupUnderLoad,
  chain,
  expectRestoredCopy,
  folder,
  operatorCommand,
  restoreInto,
  startVotingServer,
} from './backup-test-kit.ts'

backupBed('guildhall-backup-pg-')
// Made here rather than by testDatabase(), whose open pool would be a connection of the app's own name and
// look like a server to the restore's check.
const liveName = `guildhall_backup_${process.pid}`
const emptyName = `guildhall_restore_${process.pid}`
const urlOf = (name: string) => {
  const url = new URL(process.env.TEST_DATABASE_URL as string)
  url.pathname = `/${name}`
  return url.toString()
}

/** A statement on the test server's own database (creating and dropping databases). */
async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  await admin(`create database "${liveName}"`)
  await admin(`create database "${emptyName}"`)
})

afterAll(async () => {
  await admin(`drop database if exists "${liveName}" with (force)`)
  await admin(`drop database if exists "${emptyName}" with (force)`)
})

describe('npm run backup / npm run restore (PostgreSQL)', () => {
  test('behavior: pg_dump taken while signed votes come in restores with pg_restore into a new database with every vote answered 201 before it started, one log chain and tallies equal to a recount; a restore into a database a server uses, or one holding tables, is refused', async () => {
    const liveUrl = urlOf(liveName)
    const api = await startVotingServer(chain, { DATABASE_URL: liveUrl })
    const file = join(folder, 'copy.dump')
    const load = await backupUnderLoad(api, chain, file, { DATABASE_URL: liveUrl })
    expect(load.output).toContain(', pg_dump, ')

    const intoServed = await operatorCommand('restore', [file], { DATABASE_URL: liveUrl })
    expect(intoServed.code).toBe(1)
    expect(intoServed.stderr).toBe(
      'Refused: a server is connected to the database DATABASE_URL names. Stop every instance first (a backup needs no stop; a restore does). Nothing was changed.\n',
    )
    await stopApiProcess(api, 'SIGTERM')
    const intoFull = await operatorCommand('restore', [file], { DATABASE_URL: liveUrl })
    expect(intoFull.code).toBe(1)
    expect(intoFull.stderr).toMatch(
      /^Refused: the database DATABASE_URL names already holds \d+ tables\. Restore into a new, empty database/,
    )

    const emptyUrl = urlOf(emptyName)
    await restoreInto(file, { DATABASE_URL: emptyUrl })
    await expectRestoredCopy({ DATABASE_URL: emptyUrl }, load, 'postgres')
  }, 300_000)
})
