// `npm run backup` and `npm run restore` on the embedded database (ADR 067), as an operator runs them against a
// real server (a child process on a PGlite DATA_DIR) taking signed votes from the demo members: the copy taken
// while votes come in restores into a fresh folder whole (every vote answered 201 before the backup started,
// one log chain, tallies equal to a recount); a restore onto the folder the server runs on is refused and
// changes nothing. The PostgreSQL path is scripts/backup.postgres.test.ts.
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { openDatabase, PID_FILE } from '@guildhall/api/database'
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
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

backupBed('guildhall-backup-')

describe('npm run backup / npm run restore (embedded database)', () => {
  test('behavior: a backup taken by the running server while signed votes come in restores into a fresh folder with every vote answered 201 before it started, one log chain and tallies equal to a recount; a restore onto the running server’s folder is refused', async () => {
    const live = join(folder, 'live')
    const api = await startVotingServer(chain, { DATA_DIR: live })
    const file = join(folder, 'copy.tar.gz')
    const load = await backupUnderLoad(api, chain, file, { DATA_DIR: live })
    expect(load.output).toContain(`by the running server (pid ${api.child.pid}), between two transactions`)

    // Onto the folder the server runs on: refused, nothing moved, the server still answers.
    const refused = await operatorCommand('restore', [file], { DATA_DIR: live })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      `Refused: a server or command (pid ${api.child.pid}) is running on ${live}. Stop it first (a backup needs no stop; a restore does). Nothing was changed.\n`,
    )
    expect((await readdir(folder)).sort()).toEqual(['copy.tar.gz', 'live'])
    expect((await fetch(`${api.origin}/api/health`)).status).toBe(200)

    const fresh = join(folder, 'fresh')
    const restored = await restoreInto(file, { DATA_DIR: fresh })
    expect(restored.stdout).toContain(`Restored ${file} into ${fresh}.`)
    // The copy carried the live server's pid file; the restored folder is nobody's.
    expect(await readdir(fresh)).not.toContain(PID_FILE)
    await expectRestoredCopy({ DATA_DIR: fresh }, load, 'pglite')
  }, 300_000)

  test('error: a file that is not a copy of the embedded database is refused and changes nothing (exit 1); without a file the usage is printed (exit 2)', async () => {
    const notACopy = join(folder, 'notes.txt')
    await writeFile(notACopy, 'not a backup')
    const target = join(folder, 'never')
    const refused = await operatorCommand('restore', [notACopy], { DATA_DIR: target })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      new RegExp(
        `^Refused: ${notACopy} is not a copy of the embedded database \\(.+\\)\\. Nothing was changed\\.\n$`,
      ),
    )
    expect((await readdir(folder)).filter((name) => name.startsWith('never'))).toEqual([])
    const usage = await operatorCommand('restore', [], { DATA_DIR: target })
    expect(usage).toMatchObject({
      code: 2,
      stderr: 'Usage: npm run restore -- <file written by npm run backup>\n',
    })
  }, 120_000)

  test('behavior: with no server on the folder the backup opens it itself; a copy made by a newer version (a migration this one does not ship) is refused and changes nothing', async () => {
    const newer = join(folder, 'newer')
    const database = await openDatabase({ dataDir: newer })
    try {
      await database.migrate()
      await database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-version', ${Date.now()})`,
      )
    } finally {
      await database.close()
    }
    const file = join(folder, 'newer.tar.gz')
    const backup = await operatorCommand('backup', [file], { DATA_DIR: newer })
    expect(backup, backup.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(backup.stdout).toContain(`Backed up to ${file} (`)
    expect(backup.stdout).toContain(', with no server running, ')
    expect(await readdir(newer)).not.toContain(PID_FILE)

    const target = join(folder, 'older')
    const refused = await operatorCommand('restore', [file], { DATA_DIR: target })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      'Refused: the copy has 1 migration(s) this version does not know: it was made by a newer version. Restore it with that version.\n',
    )
    expect((await readdir(folder)).filter((name) => name.startsWith('older'))).toEqual([])
  }, 120_000)
})
