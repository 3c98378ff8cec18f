import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { type Database, openDatabase } from './platform/db/client.ts'
import { listenForMetrics } from './platform/metrics/metrics-http.ts'
import { EnvError, parseEnv, type Settings } from './settings/env.ts'

/** Opens and migrates the database, then starts the API (and the web app when WEB_DIST is set). */
export async function startServer(
  settings: Settings,
  /** The server's clock; the real one but in tests that move it (the e2e of an execution's delays). */
  { now }: { now?: () => Date } = {},
): Promise<{
  app: FastifyInstance
  url: string
  /** The metrics' own listener (METRICS_PORT), when set. */
  metricsUrl: string | undefined
  database: Database
  close: () => Promise<void>
}> {
  const database = await openDatabase({
    databaseUrl: settings.database.url,
    dataDir: settings.database.dataDir,
  })
  let app: FastifyInstance | undefined
  let metricsListener: Awaited<ReturnType<typeof listenForMetrics>> | undefined
  try {
    await database.migrate()
    const logger = settings.logLevel === 'silent' ? false : { level: settings.logLevel }
    app = await buildApp({ settings, database, logger, now })
    await app.listen({ port: settings.port, host: settings.host })
    const address = app.server.address()
    const port = typeof address === 'object' && address ? address.port : settings.port
    const { metrics } = app
    if (metrics && settings.metrics.port !== undefined)
      metricsListener = await listenForMetrics(
        metrics,
        { port: settings.metrics.port, host: settings.metrics.host },
        app.log,
      )
    return {
      app,
      url: `http://${settings.host}:${port}`,
      metricsUrl: metricsListener?.url,
      database,
      // In-flight requests finish before the database closes.
      close: async () => {
        await metricsListener?.close()
        await app?.close()
        await database.close()
      },
    }
  } catch (error) {
    // A port already taken fails after the app is ready: its background jobs stop before the database closes.
    await metricsListener?.close()
    await app?.close()
    await database.close()
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

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    // Run directly, the embedded database lives in ./.data unless DATA_DIR or DATABASE_URL says otherwise.
    const settings = parseEnv({ DATA_DIR: '.data', ...process.env })
    const server = await startServer(settings)
    closeOnSignals(server.close)
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}
