// npm run takedown (scripts/takedown.ts) as the operator runs it: its arguments, the database it needs, and a
// refusal said in a sentence with its exit code. What a takedown does is proved by the API's test of the
// same function (apps/api/src/discussion/moderation.test.ts).
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { openDatabase } from '@guildhall/api/database'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const run = promisify(execFile)

/** Runs the CLI; answers its exit code and what it wrote. */
async function takedownCli(args: string[], env: Record<string, string>) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/takedown.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...inherited, ...env },
      },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

let dataDir: string
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'guildhall-takedown-'))
  // The server's database as its start leaves it: migrated (PGlite takes one process at a time, so closed).
  const database = await openDatabase({ dataDir })
  await database.migrate()
  await database.close()
})
afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe('npm run takedown', () => {
  test('behavior: without an id or a reason it prints its usage (exit 2); without a database it says which variable to set (exit 2)', async () => {
    const usage = await takedownCli([`0x${'ab'.repeat(32)}`], { DATA_DIR: dataDir })
    expect(usage).toMatchObject({
      code: 2,
      stderr: 'Usage: npm run takedown -- <topic or comment id> --reason "<why, shown in public>"\n',
    })
    const nowhere = await takedownCli([`0x${'ab'.repeat(32)}`, '--reason', 'court order'], {})
    expect(nowhere.code).toBe(2)
    expect(nowhere.stderr).toContain('Set DATABASE_URL (PostgreSQL) or DATA_DIR')
  }, 120_000)

  test('behavior: an id no topic or comment has is refused in a sentence (exit 1), on the server’s embedded database', async () => {
    const id = `0x${'ab'.repeat(32)}`
    const refused = await takedownCli([id, '--reason', 'court order'], { DATA_DIR: dataDir })
    expect(refused).toMatchObject({ code: 1, stderr: `Refused: No topic or comment has the id ${id}.\n` })
  }, 120_000)
})
