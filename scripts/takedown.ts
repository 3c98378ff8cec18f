// npm run takedown -- <message id> --reason "<text>" — the operator's legal takedown (ADR 054), with the server's
// DATABASE_URL (PostgreSQL) or DATA_DIR (the embedded database, while the server is stopped: PGlite takes one
// process at a time). Removes the text of a topic, or of every version of a comment, in one transaction; each
// log entry and its hash stay, and a `takedown` entry says so. Exit code: 0 done, 1 refused, 2 could not run.

import { parseArgs } from 'node:util'
import { openDatabase } from '@guildhall/api/database'
import { TakedownRefused, takedown } from '@guildhall/api/operations'
import { runCli, serverDatabase } from './run-cli.ts'

const USAGE = 'Usage: npm run takedown -- <topic or comment id> --reason "<why, shown in public>"'

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { reason: { type: 'string' } },
  })
  const [id, ...extra] = positionals
  if (!id || extra.length > 0 || values.reason === undefined) {
    console.error(USAGE)
    return 2
  }
  const settings = serverDatabase()
  if (!settings) return 2
  const database = await openDatabase(settings)
  try {
    const done = await takedown(database.db, { id, reason: values.reason, now: new Date() })
    const entries = done.removed.map((message) => message.logSeq).join(', ')
    console.log(
      `Took down the ${done.kind} ${done.target} in thread ${done.thread}: the text of ${done.removed.length} message(s) removed, takedown log entries ${entries}.`,
    )
    return 0
  } catch (error) {
    if (error instanceof TakedownRefused) {
      console.error(`Refused: ${error.message}`)
      return 1
    }
    throw error
  } finally {
    await database.close()
  }
}

runCli('The takedown', main)
