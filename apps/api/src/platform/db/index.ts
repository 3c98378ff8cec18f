// @guildhall/api/database: the database from outside this package (the operator's checks, the bench, the
// cluster): open and migrate it, the tables a script reads or seeds, and the embedded database's folder as the
// backup and restore commands hold and copy it.
export { type Database, migrationsFolder, openDatabase, poolSettings } from './client.ts'
export { claimDataDir, DataDirInUse, dataDirHolder, PID_FILE, requestBackup } from './data-dir.ts'
export {
  ballots,
  comments,
  commentVersions,
  discussionKeys,
  discussionMessages,
  governanceLog,
  memberStats,
  proposals,
  proposalTallies,
  rankedResults,
  threads,
  votes,
} from './schema.ts'
