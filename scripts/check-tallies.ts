// npm run tallies:check — with the server's DATABASE_URL (PostgreSQL) or DATA_DIR (the embedded database, while
// the server is stopped: PGlite takes one process at a time).
// Recounts every proposal from its ballots and compares with the totals the pages show, which each vote moves in
// its own transaction (apps/api/src/governance/tallies.ts), and recounts every member's directory figures from the
// token index, the ballots and the sessions (apps/api/src/member-stats/vote-moves.ts). Exit code: 0 all equal, 1 a
// proposal or a member differs, 2 the check could not run.

import { openDatabase } from '@guildhall/api/database'
import { checkMemberStats, checkTallies } from '@guildhall/api/operations'
import { runCli } from './run-cli.ts'

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL
  const dataDir = process.env.DATA_DIR
  if (!databaseUrl && !dataDir) {
    console.error(
      'Set DATABASE_URL (PostgreSQL) or DATA_DIR (the embedded database’s folder) as the server has it.',
    )
    return 2
  }
  const database = await openDatabase({ databaseUrl, dataDir })
  try {
    const { proposals, mismatches } = await checkTallies(database.db)
    for (const mismatch of mismatches) {
      console.log(`Proposal ${mismatch.proposalId} DIFFERS:`)
      console.log(`  stored:     ${JSON.stringify(mismatch.stored)}`)
      console.log(`  recounted:  ${JSON.stringify(mismatch.recounted)}`)
    }
    const directory = await checkMemberStats(database.db)
    for (const mismatch of directory.mismatches) {
      console.log(`Member ${mismatch.address} DIFFERS:`)
      console.log(`  stored:     ${JSON.stringify(mismatch.stored)}`)
      console.log(`  recounted:  ${JSON.stringify(mismatch.recounted)}`)
    }
    if (mismatches.length > 0)
      console.log(`${mismatches.length} of ${proposals} proposals differ from a recount of their ballots.`)
    else console.log(`All ${proposals} proposals' stored tallies equal a recount of their ballots.`)
    if (directory.mismatches.length > 0)
      console.log(
        `${directory.mismatches.length} of ${directory.members} members' directory figures differ from a recount.`,
      )
    else console.log(`All ${directory.members} members' directory figures equal a recount from the index.`)
    return mismatches.length > 0 || directory.mismatches.length > 0 ? 1 : 0
  } finally {
    await database.close()
  }
}

runCli('The check', main)
