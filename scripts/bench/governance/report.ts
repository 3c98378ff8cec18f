// The governance section's table printed for people.
import type { GovernanceBenchResult } from '../harness/schema.ts'
import { table } from '../harness/stats.ts'

export function formatGovernanceReport(r: GovernanceBenchResult): string {
  const ingest = table([
    [
      'Vote ingest (HTTP, server in a child process)',
      'votes',
      'votes/s',
      'p50',
      'p99',
      'max',
      'non-201',
      'CPU/vote',
    ],
    ...r.ingest.map((run) =>
      'skipped' in run
        ? [run.database, 'skipped', run.skipped, '', '', '', '', '']
        : [
            `${run.database}, ${run.voters} voters × ${run.proposals} proposals, ${run.concurrency} concurrent`,
            String(run.votes),
            String(run.votesPerSecond),
            `${run.latencyMs.p50} ms`,
            `${run.latencyMs.p99} ms`,
            `${run.latencyMs.max} ms`,
            String(run.errors),
            `${run.cpuMsPerVote.apiServer} ms API${
              run.cpuMsPerVote.databaseServer === null ? '' : ` + ${run.cpuMsPerVote.databaseServer} ms DB`
            }`,
          ],
    ),
  ])
  const tallies = table([
    ['Tally (ordering rule + bigint tally, in-process)', 'time'],
    ...r.tally.map((t) => [`${t.votes.toLocaleString('en-US')} votes`, `${t.ms} ms`]),
  ])
  const i = r.index
  const index = table([
    [
      'Token index, fresh sync (TokenIndex.syncOnce)',
      'events',
      'blocks',
      'time',
      'events/s',
      'CPU index / anvil',
    ],
    [
      `${i.database}, ${i.transfers.toLocaleString('en-US')} transfers, ${i.maxRange} blocks per eth_getLogs`,
      i.events.toLocaleString('en-US'),
      String(i.blocks),
      `${i.seconds} s`,
      i.eventsPerSecond.toLocaleString('en-US'),
      `${i.cpuSeconds.indexer} s / ${i.cpuSeconds.anvil ?? '?'} s`,
    ],
  ])
  const lookup = table([
    ['Voting-power lookup (TokenIndex.votesAt, that index)', 'p50', 'p99', 'max'],
    [
      `${r.lookup.lookups} lookups, ${r.lookup.accounts} accounts`,
      `${r.lookup.latencyUs.p50} µs`,
      `${r.lookup.latencyUs.p99} µs`,
      `${r.lookup.latencyUs.max} µs`,
    ],
  ])
  return [
    ingest,
    '',
    tallies,
    '',
    index,
    `  The index matched the token's getPastVotes and balanceOf for ${i.checkedAccounts} sampled accounts.`,
    '',
    lookup,
  ].join('\n')
}
