// npm run backup [-- <file>] — a copy of the database the server uses, while it runs (ADR 067).
// The embedded database (DATA_DIR): the running server writes it, between two transactions, on this command's
// request (SIGUSR2); with no server on the folder, this command opens it and writes it. A gzipped tar of the
// folder, `guildhall-<time>.tar.gz` by default. PostgreSQL (DATABASE_URL): `pg_dump --format=custom`,
// `guildhall-<time>.dump` by default. `npm run restore -- <file>` puts either back.
// Exit code: 0 written, 2 it could not be.
import { stat, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { claimDataDir, dataDirHolder, openDatabase, requestBackup } from '@guildhall/api/database'
import { runPgTool } from './pg-tools.ts'
import { runCli, serverDatabase } from './run-cli.ts'

/** How long the server may take to write a copy (a large folder on a slow disk). */
const SERVER_COPY_TIMEOUT_MS = 10 * 60_000

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')

async function main(): Promise<number> {
  const args = process.argv.slice(2)
  if (args.length > 1 || args[0]?.startsWith('-')) {
    console.error('Usage: npm run backup [-- <file>]')
    return 2
  }
  const settings = serverDatabase()
  if (!settings) return 2
  const { databaseUrl, dataDir } = settings
  const file = resolve(args[0] ?? `guildhall-${stamp()}.${databaseUrl ? 'dump' : 'tar.gz'}`)
  const started = performance.now()
  let how: string
  if (databaseUrl) {
    await runPgTool('pg_dump', ['--format=custom', '--no-password', `--file=${file}`], databaseUrl)
    how = 'pg_dump'
  } else {
    const folder = resolve(dataDir as string)
    await stat(folder).catch(() => {
      throw new Error(`${folder} does not exist: DATA_DIR must be the folder the server has`)
    })
    const holder = await dataDirHolder(folder)
    if (holder?.role === 'server') {
      await requestBackup(folder, holder.pid, file, { timeoutMs: SERVER_COPY_TIMEOUT_MS })
      how = `by the running server (pid ${holder.pid}), between two transactions`
    } else {
      // Another command holding the folder is refused here (DataDirInUse), said as the error it is.
      const release = await claimDataDir(folder, 'command')
      try {
        const database = await openDatabase({ dataDir: folder })
        try {
          const dump = database.dump as () => Promise<Blob>
          await writeFile(file, Buffer.from(await (await dump()).arrayBuffer()))
        } finally {
          await database.close()
        }
      } finally {
        await release()
      }
      how = 'with no server running'
    }
  }
  const { size } = await stat(file)
  const seconds = (performance.now() - started) / 1000
  console.log(
    `Backed up to ${file} (${(size / 2 ** 20).toFixed(1)} MiB, ${how}, ${seconds.toFixed(1)} s). Put it back with: npm run restore -- ${file}`,
  )
  return 0
}

runCli('The backup', main)
