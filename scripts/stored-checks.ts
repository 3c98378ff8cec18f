// What an operator's command says of a database it checks: the stored tallies and directory figures against a
// recount (`npm run tallies:check`), and, for a restored copy (`npm run restore`), its migrations and its
// governance log's hash chain. Each prints its findings and answers true when nothing differs.
import { type Database, governanceLog, migrationsFolder } from '@guildhall/api/database'
import { checkMemberStats, checkTallies } from '@guildhall/api/operations'
import { type LogEntry, loadWasmKeccak, logChainProblem } from '@guildhall/core'
import { asc, gt, sql } from 'drizzle-orm'
import { readMigrationFiles } from 'drizzle-orm/migrator'

type Print = (line: string) => void

/** Every proposal's stored tally and every member's directory figures against a recount. */
export async function reportTallies(db: Database['db'], print: Print): Promise<boolean> {
  const { proposals, mismatches } = await checkTallies(db)
  for (const mismatch of mismatches) {
    print(`Proposal ${mismatch.proposalId} DIFFERS:`)
    print(`  stored:     ${JSON.stringify(mismatch.stored)}`)
    print(`  recounted:  ${JSON.stringify(mismatch.recounted)}`)
  }
  const directory = await checkMemberStats(db)
  for (const mismatch of directory.mismatches) {
    print(`Member ${mismatch.address} DIFFERS:`)
    print(`  stored:     ${JSON.stringify(mismatch.stored)}`)
    print(`  recounted:  ${JSON.stringify(mismatch.recounted)}`)
  }
  if (mismatches.length > 0)
    print(`${mismatches.length} of ${proposals} proposals differ from a recount of their ballots.`)
  else print(`All ${proposals} proposals' stored tallies equal a recount of their ballots.`)
  if (directory.mismatches.length > 0)
    print(
      `${directory.mismatches.length} of ${directory.members} members' directory figures differ from a recount.`,
    )
  else print(`All ${directory.members} members' directory figures equal a recount from the index.`)
  return mismatches.length === 0 && directory.mismatches.length === 0
}

/** Log entries read per query, so the check's memory stays one page whatever the log's length. */
const LOG_PAGE = 5000

/** The governance log, page by page: one chain from the genesis hash, seqs 1…n, each hash its fields'. */
export async function reportLogChain(db: Database['db'], print: Print): Promise<boolean> {
  // Every entry is hashed again: by the WebAssembly Keccak, as the server does (ADR 086).
  await loadWasmKeccak()
  let previous: { seq: number; hash: LogEntry['hash'] } | undefined
  let entries = 0
  for (;;) {
    const page = (await db
      .select()
      .from(governanceLog)
      .where(previous ? gt(governanceLog.seq, previous.seq) : undefined)
      .orderBy(asc(governanceLog.seq))
      .limit(LOG_PAGE)) as unknown as LogEntry[]
    const problem = logChainProblem(page, previous)
    if (problem) {
      print(`The governance log BREAKS at entry ${problem.seq}: ${problem.problem}.`)
      return false
    }
    const last = page.at(-1)
    if (!last) break
    entries += page.length
    previous = last
  }
  print(
    entries === 0
      ? 'The governance log is empty.'
      : `The governance log is one chain of ${entries} entries (head ${previous?.hash}).`,
  )
  return true
}

/**
 * The migrations the database has applied against those this version ships: answers `newer` when it has one
 * this version does not know (a backup of a newer version), else how many are still to apply.
 */
export async function migrationState(
  database: Database,
): Promise<{ applied: number; pending: number; unknown: number }> {
  const shipped = new Set(readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash))
  const table = await database.db.execute<{ found: string | null }>(
    sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`,
  )
  const applied =
    table.rows[0]?.found == null
      ? []
      : (await database.db.execute<{ hash: string }>(sql`select hash from drizzle.__drizzle_migrations`)).rows
  const unknown = applied.filter((row) => !shipped.has(row.hash)).length
  return { applied: applied.length, pending: shipped.size - (applied.length - unknown), unknown }
}
