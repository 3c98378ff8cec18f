// @guildhall/api/database: the database from outside this package (the operator's checks, the bench, the
// cluster): open and migrate it, and the tables a script reads or seeds.
export { type Database, openDatabase, poolSettings } from './client.ts'
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
