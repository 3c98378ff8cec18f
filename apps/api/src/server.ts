import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { EnvError, parseEnv, type Settings } from './env.ts'

/** Starts the API (and the web app when WEB_DIST is set) and returns it listening. */
export async function startServer(settings: Settings): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp({
    settings,
    logger: settings.logLevel === 'silent' ? false : { level: settings.logLevel },
  })
  await app.listen({ port: settings.port, host: settings.host })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : settings.port
  return { app, url: `http://${settings.host}:${port}` }
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
    const settings = parseEnv(process.env)
    const { app } = await startServer(settings)
    closeOnSignals(() => app.close())
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
}
