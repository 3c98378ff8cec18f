// What scripts/backup.test.ts (the embedded database) and scripts/backup.postgres.test.ts share: their setup
// (backupBed), the operator's commands run as they are (`npm run backup`, `npm run restore`), a backup taken
// while a real server takes signed votes, and what the restored copy must hold.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { governanceLog, openDatabase, votes } from '@guildhall/api/database'
import { type DemoChain, testEnv } from '@guildhall/api/demo'
import { checkTallies } from '@guildhall/api/operations'
import {
  type ApiProcess,
  startApiProcess,
  startVoteChain,
  startVoteLoad,
  stopApiProcesses,
} from '@guildhall/api/testbed'
import { type LogEntry, logChainProblem } from '@guildhall/core'
import { asc } from 'drizzle-orm'
import { afterAll, beforeAll, expect } from 'vitest'

const ROOT = join(import.meta.dirname, '..')
const run = promisify(execFile)

// Live bindings (ES modules), set by backupBed's beforeAll.
export let chain: DemoChain
export let folder: string

/**
 * The setup a backup test file shares: the demo DAO's chain ready for votes and a scratch folder named from
 * `prefix`; after the file, every API server it started is killed, the chain stopped and the folder removed.
 * Called once at the file's top.
 */
export function backupBed(prefix: string): void {
  beforeAll(async () => {
    chain = await startVoteChain()
    folder = await mkdtemp(join(tmpdir(), prefix))
  }, 60_000)
  afterAll(async () => {
    await stopApiProcesses()
    await chain?.anvil.stop()
    await rm(folder, { recursive: true, force: true })
  }, 30_000)
}

/** Runs `npm run backup` or `npm run restore` with `args`, in an environment holding only `env`'s database. */
export async function operatorCommand(
  command: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
) {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...inherited } = process.env
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', join(ROOT, `scripts/${command}.ts`), ...args],
      { cwd: ROOT, env: { ...inherited, ...env } },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

/** The API server as a child process on `env`'s database, taking the demo members' votes with no sign-in. */
export function startVotingServer(chain: DemoChain, env: Record<string, string>): Promise<ApiProcess> {
  return startApiProcess({
    ...testEnv(chain.anvil.url, chain.deployment),
    SIGN_IN: 'off',
    // Votes from one address as fast as the server takes them are the point here, not the per-client limit.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ...env,
  })
}

/** Votes accepted before the backup begins; and after it ends, so the copy is proved taken mid-load. */
const ACCEPTED_BEFORE = 40
const ACCEPTED_AFTER = 20

/**
 * Starts votes on `api` (signed by Ada, Ben and Cleo, 20 in flight), runs `npm run backup -- <file>` with
 * `env` once ACCEPTED_BEFORE are accepted, lets ACCEPTED_AFTER more be accepted once it has written the file,
 * and stops. Answers the votes answered 201 before the backup started, and all answered 201.
 */
export async function backupUnderLoad(
  api: ApiProcess,
  chain: DemoChain,
  file: string,
  env: Record<string, string>,
): Promise<{ before: Set<string>; accepted: Set<string>; output: string }> {
  const load = await startVoteLoad(api.origin, chain, { proposals: 12, inFlight: 20 })
  try {
    await load.acceptedAtLeast(ACCEPTED_BEFORE)
    const before = new Set(load.accepted())
    const backup = await operatorCommand('backup', [file], env)
    expect(backup, backup.stderr).toMatchObject({ code: 0, stderr: '' })
    await load.acceptedAtLeast(load.accepted().length + ACCEPTED_AFTER)
    const answers = await load.stop()
    // Only 201, or 409 for a re-vote that arrived after its voter's later one on the same proposal.
    expect(answers.filter((a) => a.status !== 201 && a.status !== 409)).toEqual([])
    return { before, accepted: new Set(load.accepted()), output: backup.stdout }
  } finally {
    await load.stop()
  }
}

/**
 * `npm run restore -- <file>` into the empty target `env` names: it succeeds and prints that the log is one
 * chain and the tallies equal a recount. Answers its output.
 */
export async function restoreInto(file: string, env: Record<string, string>) {
  const restored = await operatorCommand('restore', [file], env)
  expect(restored, restored.stderr).toMatchObject({ code: 0, stderr: '' })
  expect(restored.stdout).toMatch(
    /^The governance log is one chain of \d+ entries \(head 0x[0-9a-f]{64}\)\.$/m,
  )
  expect(restored.stdout).toMatch(/^All 12 proposals' stored tallies equal a recount of their ballots\.$/m)
  return restored
}

/**
 * The database restored into `env`'s target: every vote answered 201 before the backup started is there, and
 * not every vote answered 201 in all (the copy was taken mid-load); the log is one chain; the stored tallies
 * equal a recount. Prints the counts, headed by `label`.
 */
export async function expectRestoredCopy(
  env: Record<string, string>,
  { before, accepted, output }: { before: Set<string>; accepted: Set<string>; output: string },
  label: string,
): Promise<void> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR })
  try {
    const stored = new Set((await database.db.select({ id: votes.id }).from(votes)).map((vote) => vote.id))
    expect([...before].filter((id) => !stored.has(id))).toEqual([])
    expect([...accepted].filter((id) => !stored.has(id)).length).toBeGreaterThan(0)
    const log = await database.db.select().from(governanceLog).orderBy(asc(governanceLog.seq))
    expect(logChainProblem(log as unknown as LogEntry[])).toBeNull()
    expect(log.length).toBeGreaterThan(stored.size)
    expect((await checkTallies(database.db)).mismatches).toEqual([])
    console.log(
      `backup under load (${label}): ${before.size} votes answered 201 before the backup, ${stored.size} in the copy, ${accepted.size} in all; ${output.trim()}`,
    )
  } finally {
    await database.close()
  }
}
