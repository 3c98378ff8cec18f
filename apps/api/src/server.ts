import { mkdir } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { type Database, openDatabase } from './platform/db/client.ts'
import { backupOnSignal, claimDataDir } from './platform/db/data-dir.ts'
import { EnvError, parseEnv, type Settings } from './settings/env.ts'

/** Opens and migrates the database, then starts the API (and the web app when WEB_DIST is set). */
export async function startServer(
  settings: Settings,
  /** The server's clock; the real one but in tests that move it (the e2e of an execution's delays). */
  { now }: { now?: () => Date } = {},
): Promise<{ app: FastifyInstance; url: string; database: Database; close: () => Promise<void> }> {
  // The embedded database's folder: this server's alone while it runs, and copied on SIGUSR2 (ADR 067).
  const dataDir = settings.database.url ? undefined : settings.database.dataDir
  if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
  const release = dataDir === undefined ? async () => undefined : await claimDataDir(dataDir, 'server')
  let database: Database
  try {
    database = await openDatabase({ databaseUrl: settings.database.url, dataDir })
  } catch (error) {
    await release()
    throw error
  }
  let app: FastifyInstance | undefined
  let stopBackups: () => void = () => undefined
  const closeAll = async () => {
    stopBackups()
    await app?.close()
    await database.close()
    await release()
  }
  try {
    await database.migrate()
    const logger = settings.logLevel === 'silent' ? false : { level: settings.logLevel }
    app = await buildApp({ settings, database, logger, now })
    if (dataDir !== undefined) {
      const log = app.log
      stopBackups = backupOnSignal(database, dataDir, (error) => log.error({ err: error }, 'backup failed'))
    }
    await app.listen({ port: settings.port, host: settings.host })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : settings.port
    return {
      app,
      url: `http://${settings.host}:${port}`,
      database,
      // In-flight requests finish before the database closes.
      close: closeAll,
    }
  } catch (error) {
    // A port already taken fails after the app is ready: its background jobs stop before the database closes.
    await closeAll()
    throw error
  }
}

/** Closes the server after in-flight requests finish; a second signal exits at once. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1)
      closing = true
      close().then(
        () => process.exit(0),
        (error) => {
          console.error(error)
          process.exit(1)
        },
      )
    })
  }
}

/** What the server says to a parent that started it with an IPC channel (`fork`): `npm start`, the testbed. */
export type ServerMessage = { type: 'ready'; url: string } | { type: 'cpu'; usage: NodeJS.CpuUsage }

/**
 * Started by a parent over IPC, the server says 'ready' with its URL once it listens and answers 'cpu' with
 * its own process.cpuUsage() (a bench counts the server's CPU time apart from its own). Without a channel,
 * nothing.
 */
function answerParent(url: string): void {
  const send = (message: ServerMessage) => process.send?.(message)
  if (!process.send) return
  process.on('message', (message) => {
    if (message === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() })
  })
  send({ type: 'ready', url })
}

// Run directly: `node apps/api/dist/server.js` (built, ADR 066) or `tsx apps/api/src/server.ts`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Started by a parent over IPC: it closes when the parent goes (the channel disconnects), even while
  // starting, rather than outlive it.
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'))
  try {
    // Run directly, the embedded database lives in ./.data unless DATA_DIR or DATABASE_URL says otherwise.
    const settings = parseEnv({ DATA_DIR: '.data', ...process.env })
    const server = await startServer(settings)
    closeOnSignals(server.close)
    answerParent(server.url)
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}
