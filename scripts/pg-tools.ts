// PostgreSQL's own tools (pg_dump, pg_restore) for `npm run backup` and `npm run restore` with DATABASE_URL: found
// in PG_BIN or on PATH, and given the connection through libpq's environment variables, never on their command
// line, which every local user reads with `ps` (the URL carries a password).
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** `tool`'s path in PG_BIN when set, else its bare name for PATH. */
export function pgTool(tool: 'pg_dump' | 'pg_restore'): string {
  const bin = process.env.PG_BIN
  if (bin && existsSync(join(bin, tool))) return join(bin, tool)
  return tool
}

/** libpq's variables for a `postgres://` URL: host, port, user, password, database, and its query options. */
export function libpqEnv(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl)
  const env: Record<string, string> = {}
  const host = url.searchParams.get('host') ?? decodeURIComponent(url.hostname)
  if (host) env.PGHOST = host
  if (url.port) env.PGPORT = url.port
  if (url.username) env.PGUSER = decodeURIComponent(url.username)
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password)
  const database = decodeURIComponent(url.pathname.slice(1))
  if (database) env.PGDATABASE = database
  const options: Record<string, string> = {
    sslmode: 'PGSSLMODE',
    sslrootcert: 'PGSSLROOTCERT',
    sslcert: 'PGSSLCERT',
    sslkey: 'PGSSLKEY',
    application_name: 'PGAPPNAME',
    connect_timeout: 'PGCONNECT_TIMEOUT',
  }
  for (const [name, value] of url.searchParams) {
    const variable = options[name]
    if (variable) env[variable] = value
  }
  return env
}

/** Runs a PostgreSQL tool against `databaseUrl`; rejects with what it wrote on stderr when it fails. */
export function runPgTool(
  tool: 'pg_dump' | 'pg_restore',
  args: string[],
  databaseUrl: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(pgTool(tool), args, {
      env: { ...process.env, ...libpqEnv(databaseUrl) },
      stdio: ['ignore', 'inherit', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (text: string) => {
      stderr += text
    })
    child.once('error', (error) =>
      reject(
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? new Error(
              `${tool} was not found: put PostgreSQL's client programs on PATH or set PG_BIN to their folder`,
            )
          : error,
      ),
    )
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`)),
    )
  })
}
