// What PostgreSQL's sessions do while the bench loads the API (the scale and closing-hour sections): sampled
// from pg_stat_activity on the bench's own connection.
import type { Database } from '@guildhall/api/database'
import { sql } from 'drizzle-orm'
import type { InstancesRun } from './schema.ts'
import { round1 } from './stats.ts'

/** Mean counts of the other sessions on `database`, sampled every 50 ms while `work` runs. */
export async function sampleSessions<T>(database: Database, work: () => Promise<T>) {
  type Sessions = InstancesRun['postgresSessions']
  const samples: Sessions[] = []
  let working = true
  const sampler = (async () => {
    while (working) {
      const { rows } = await database.db.execute<Record<keyof Sessions, string>>(
        sql`select count(*) filter (where state = 'active' and wait_event_type is distinct from 'Lock') as "running",
          count(*) filter (where wait_event_type = 'Lock' and query like '%"proposal_tallies"%for update%') as "waitingOnTallyRow",
          count(*) filter (where wait_event_type = 'Lock' and wait_event = 'advisory') as "waitingOnAdvisoryLock",
          count(*) filter (where wait_event_type = 'Lock' and wait_event <> 'advisory'
            and query not like '%"proposal_tallies"%for update%') as "waitingOnOtherLock",
          count(*) filter (where state = 'idle in transaction') as "idleInTransaction"
          from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )
      const row = rows[0] as Record<keyof Sessions, string>
      samples.push({
        running: Number(row.running),
        waitingOnTallyRow: Number(row.waitingOnTallyRow),
        waitingOnAdvisoryLock: Number(row.waitingOnAdvisoryLock),
        waitingOnOtherLock: Number(row.waitingOnOtherLock),
        idleInTransaction: Number(row.idleInTransaction),
      })
      await new Promise((done) => setTimeout(done, 50))
    }
  })()
  let result: T
  try {
    result = await work()
  } finally {
    working = false
    await sampler
  }
  const mean = (key: keyof Sessions) =>
    round1(samples.reduce((sum, sample) => sum + sample[key], 0) / Math.max(1, samples.length))
  return {
    result,
    sessions: {
      running: mean('running'),
      waitingOnTallyRow: mean('waitingOnTallyRow'),
      waitingOnAdvisoryLock: mean('waitingOnAdvisoryLock'),
      waitingOnOtherLock: mean('waitingOnOtherLock'),
      idleInTransaction: mean('idleInTransaction'),
    },
  }
}
