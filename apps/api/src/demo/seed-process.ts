// The demo's database seed (seedDemoDatabase) in a child process of its own, for `npm start` and
// `npm run cluster`: it migrates and seeds the database, answers how many proposals it made, and exits, so
// what it took goes back to the system with it. Run in the script that then waits for Ctrl-C beside the
// server, it stayed there: a closed PGlite's WebAssembly memory (about 200 MiB, freed only by a garbage
// collection that an idle process never runs) and the seed's allocations (about 1 GiB at its peak on a
// first start), measured in docs/deploy.md ("Memory").
import { fork } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { openDatabase } from '../platform/db/client.ts'
import { EnvError, parseEnv } from '../settings/env.ts'
import { type DemoTreasuryTarget, seedDemoDatabase } from './governance-seed.ts'

const ROOT = resolve(import.meta.dirname, '../../../..')

/** What the parent sends once: the treasury the seed's proposals pay from, when the demo has one. */
type SeedRequest = { treasury: DemoTreasuryTarget | null }
/** What the child answers before it exits. */
type SeedReply = { seeded: number }

/**
 * Migrates and seeds the database `env` names (the app's settings, given to the child as its environment,
 * never on its command line) in a child process, and resolves with how many proposals it created (0 when
 * the database had them already) once the child has exited. Rejects when it exits without an answer; its
 * error is on this process's stderr.
 */
export function seedDemoInChild(
  env: Record<string, string | undefined>,
  treasury: DemoTreasuryTarget | null = null,
): Promise<number> {
  // execArgv is always given: a fork otherwise inherits this process's, tsx's own when run by tsx's CLI.
  const child = fork(fileURLToPath(import.meta.url), [], {
    cwd: ROOT,
    env,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((done, fail) => {
    let reply: SeedReply | undefined
    child.once('message', (message: SeedReply) => {
      reply = message
    })
    child.once('error', fail)
    child.once('exit', (code, signal) => {
      if (reply && code === 0) done(reply.seeded)
      else
        fail(
          new Error(`the demo seed exited (${signal ? `signal ${signal}` : `code ${code}`}) without seeding`),
        )
    })
    child.send({ treasury } satisfies SeedRequest)
  })
}

/** The child: one request, one answer, then the database closed and the process gone. */
async function seedOnRequest({ treasury }: SeedRequest): Promise<void> {
  const settings = parseEnv(process.env)
  const database = await openDatabase({
    databaseUrl: settings.database.url,
    dataDir: settings.database.dataDir,
  })
  let seeded: number
  try {
    await database.migrate()
    seeded = await seedDemoDatabase(settings, database, treasury)
  } finally {
    await database.close()
  }
  process.send?.({ seeded } satisfies SeedReply, () => process.exit(0))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The parent gone (Ctrl-C while it seeds): no one to answer.
  process.once('disconnect', () => process.exit(1))
  process.once('message', (request: SeedRequest) => {
    seedOnRequest(request).catch((error) => {
      console.error(error instanceof EnvError ? error.message : error)
      process.exit(1)
    })
  })
}
