// PostgreSQL for a section: scripts/with-postgres.sh holds a throwaway server for as long as our pipe to
// it stays open.
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { openDatabase } from '@guildhall/api/database'
import { sql } from 'drizzle-orm'
import { processTreeCpuMs, procStat } from './processes.ts'

const root = resolve(import.meta.dirname, '../../..')

type Postgres = {
  url: string
  version: string
  /** CPU milliseconds of the server's processes so far; null without /proc. */
  serverCpuMs: (() => number) | null
  stop: () => Promise<void>
}

/**
 * Runs `with-postgres.sh` with a command that prints TEST_DATABASE_URL and then waits for its stdin to
 * close: closing the pipe (or this process dying) ends the command, and the script stops the server and
 * deletes its folder. Exit 127 before the URL = no PostgreSQL server binaries: skipped, with the reason.
 */
export async function startPostgres(): Promise<Postgres | { skipped: string }> {
  const child = spawn(
    'bash',
    [join(root, 'scripts/with-postgres.sh'), 'sh', '-c', 'echo "$TEST_DATABASE_URL"; exec cat >/dev/null'],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000)
  })
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  const stop = async () => {
    child.stdin.end()
    const timer = setTimeout(() => child.kill('SIGTERM'), 30_000)
    await exited
    clearTimeout(timer)
  }
  const url = await new Promise<string | { exitCode: number | null }>((done) => {
    let stdout = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n')
      if (line.length > 1) done((line[0] as string).trim())
    })
    exited.then((exitCode) => done({ exitCode }))
  })
  if (typeof url !== 'string') {
    if (url.exitCode === 127) return { skipped: stderr.trim().replace(/^with-postgres: /, '') }
    throw new Error(`scripts/with-postgres.sh failed (exit ${url.exitCode}): ${stderr.trim()}`)
  }
  try {
    const probe = await openDatabase({ databaseUrl: url })
    try {
      const { rows } = await probe.db.execute<{ pid: number; version: string }>(
        sql`select pg_backend_pid() as pid, current_setting('server_version') as version`,
      )
      const { pid, version } = rows[0] as { pid: number; version: string }
      const postmaster = procStat(pid)?.ppid
      return {
        url,
        version,
        serverCpuMs: postmaster === undefined ? null : () => processTreeCpuMs(postmaster),
        stop,
      }
    } finally {
      await probe.close()
    }
  } catch (error) {
    await stop()
    throw error
  }
}
