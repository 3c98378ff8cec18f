// npm run tallies:check — with the server's DATABASE_URL (PostgreSQL) or DATA_DIR (the embedded database, while
// the server is stopped: PGlite takes one process at a time).
// Recounts every proposal from its ballots and compares with the totals the pages show, which each vote moves in
// its own transaction (apps/api/src/governance/tallies.ts), and recounts every member's directory figures from the
// token index, the ballots and the sessions (apps/api/src/member-stats/vote-moves.ts). Exit code: 0 all equal, 1 a
// proposal or a member differs, 2 the check could not run.

import { openDatabase } from '@guildhall/api/database'
import { runCli, serverDatabase } from './run-cli.ts'
import { reportTallies } from './stored-checks.ts'

async function main(): Promise<number> {
  const settings = serverDatabase()
  if (!settings) return 2
  const database = await openDatabase(settings)
  try {
    return (await reportTallies(database.db, console.log)) ? 0 : 1
  } finally {
    await database.close()
  }
}

runCli('The check', main)
