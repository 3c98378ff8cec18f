// Fault test ("nothing lost", docs/security.md): the real server, run as a child process, is SIGKILLed during a burst of votes and
// restarted on the same data (the PGlite data folder, or the same PostgreSQL database with
// TEST_DATABASE_URL). Afterwards: every 2xx vote is stored and in the log; the log chain verifies end to end;
// the counts reconcile (one log entry per stored message, one counting vote per voter, the one the ordering
// rule picks); an answered refusal left nothing; and every request that got no answer, sent again with the
// same signed payload, converges to one stored effect (testbed/vote-burst.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, test } from 'vitest'
import { startApiProcess, stopApiProcess, stopApiProcesses } from '../../testbed/api-process.ts'
import {
  createProposals,
  expectNothingLost,
  resendCut,
  runBurst,
  signBurst,
  startVoteChain,
} from '../../testbed/vote-burst.ts'
import { type DemoChain, testEnv } from '../demo/local-chain.ts'
import { openDatabase } from '../platform/db/client.ts'
import { type TestDatabase, testDatabase, testDatabaseUrl } from '../platform/db/test-database.ts'

/** Proposals voted on by Ada, Ben and Cleo each, plus re-votes on the first RE_VOTED of them. */
const PROPOSALS = 40
const RE_VOTED = 20
const IN_FLIGHT = 50
/** The server is killed as soon as this many votes have answered 2xx, so about IN_FLIGHT are cut off. */
const KILL_AFTER_OKS = 60

let chain: DemoChain
let postgres: TestDatabase | undefined
let dataDir: string | undefined

beforeAll(async () => {
  chain = await startVoteChain()
  if (testDatabaseUrl()) postgres = await testDatabase()
  else dataDir = await mkdtemp(join(tmpdir(), 'guildhall-vote-fault-'))
}, 60_000)

afterAll(async () => {
  await stopApiProcesses()
  await chain?.anvil.stop()
  await postgres?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
}, 30_000)

const storage = () =>
  postgres?.url ? { DATABASE_URL: postgres.url } : { DATA_DIR: join(dataDir as string, 'db') }
const startVoteApi = () =>
  startApiProcess({
    ...testEnv(chain.anvil.url, chain.deployment),
    SIGN_IN: 'off',
    // A burst of hundreds of votes from one address is the point here, not the per-client limit.
    GOVERNANCE_RATE_LIMIT_PER_MINUTE: '1000000',
    ...storage(),
  })

test(`behavior: SIGKILL during a burst of ${PROPOSALS * 3 + RE_VOTED * 3} votes (${IN_FLIGHT} in flight), restart → every 2xx kept, the log verifies, counts reconcile, retries converge`, async () => {
  const burst = await signBurst(chain, { title: 'Crash-tested', count: PROPOSALS, reVoted: RE_VOTED })
  const first = await startVoteApi()
  await createProposals(first.origin, burst)

  // The burst; SIGKILL on the KILL_AFTER_OKS-th 2xx.
  const { accepted, refused, cut } = await runBurst(first.origin, burst, {
    inFlight: IN_FLIGHT,
    killAfterOks: KILL_AFTER_OKS,
    kill: () => stopApiProcess(first, 'SIGKILL'),
  })

  // Restart on the same data; every request that got no answer is sent again with its signed payload.
  const second = await startVoteApi()
  await resendCut(second.origin, burst, cut)
  await stopApiProcess(second, 'SIGTERM')

  const database = await openDatabase(
    postgres?.url ? { databaseUrl: postgres.url } : { dataDir: join(dataDir as string, 'db') },
  )
  try {
    const { storedIds, logEntries } = await expectNothingLost(database.db, burst, { accepted, refused })
    console.log(
      `vote crash (${postgres ? 'postgres' : 'pglite'}): ${accepted.length} × 2xx, ${refused.length} refused (409), ${cut.length} cut off and retried; ${storedIds.size} votes stored, ${logEntries} log entries`,
    )
  } finally {
    await database.close()
  }
}, 180_000)
