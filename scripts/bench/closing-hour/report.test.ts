// The closing-hour budget's judgement: the floor line as the issue words it, 60 % of (floor × cores) as
// the machine's other processes (PostgreSQL, the load generator) allow, beside the line against every core;
// and what the stream lines say when they were not run.
import { expect, test } from 'vitest'
import type { ClosingHourResult, ClosingHourRun } from '../harness/schema.ts'
import { closingHourBudget } from './report.ts'

const run = (votesPerSecond: number, databaseServer: number, loadGenerator: number): ClosingHourRun => ({
  setup: 'PostgreSQL, 1 instance',
  database: 'PostgreSQL',
  instances: 1,
  votes: 10_000,
  concurrency: 200,
  votesPerSecond,
  latencyMs: { p50: 300, p99: 400, max: 500 },
  errors: 0,
  cpuMsPerVote: { apiServers: 2.4, databaseServer, loadGenerator },
  postgresSessions: null,
  logLock: { skipped: 'not read' },
})

const measured = (pg1: ClosingHourRun): Omit<ClosingHourResult, 'budget'> => ({
  voters: 10_000,
  concurrency: 200,
  cores: 2,
  cpu: 'test',
  loadAverage: { start: 0, end: 0 },
  setupSeconds: { signing: 0, holders: 0 },
  floors: { voteChecksPerCoreSecond: 565, signInChecksPerCoreSecond: 665, samples: 2000 },
  runs: [pg1],
  signIn: { skipped: 'not run' },
  serverStart: { skipped: 'not run' },
  totalSeconds: 0,
})

const floorLines = (pg1: ClosingHourRun) =>
  closingHourBudget(measured(pg1)).filter((line) => line.budget.includes('of vote floor'))

test('behavior: the floor line is judged against every core and, apart, against the cores PostgreSQL and the load generator left', () => {
  // 547 votes/s, 0.8 ms of the others' CPU per vote: they took 0.44 of the 2 cores.
  const [everyCore, othersLeft] = floorLines(run(547, 0.6, 0.2))
  expect(everyCore).toMatchObject({ limit: 678, pass: false })
  expect(othersLeft).toMatchObject({ limit: 529.7, pass: true })
  expect(othersLeft?.budget).toContain('× the cores the others left (2 − 0.44)')
  // The others took 0.1 of the cores: 500 votes/s misses both lines.
  const [, nearlyAll] = floorLines(run(500, 0.1, 0.1))
  expect(nearlyAll).toMatchObject({ limit: 644.1, pass: false })
})

test('behavior: the stream lines say why they were not run: no PostgreSQL run, or a run without streams', () => {
  const streamNotes = (result: Omit<ClosingHourResult, 'budget'>) =>
    closingHourBudget(result)
      .filter((line) => line.budget.includes('stream'))
      .map((line) => [line.pass, line.note])
  expect(streamNotes(measured(run(547, 0.6, 0.2)))).toEqual([
    [null, 'not run (CLOSING_HOUR_STREAMS=0)'],
    [null, 'not run (CLOSING_HOUR_STREAMS=0)'],
    [null, 'not run (CLOSING_HOUR_STREAMS=0)'],
  ])
  expect(streamNotes({ ...measured(run(547, 0.6, 0.2)), runs: [] })).toEqual([
    [null, 'not run (no PostgreSQL)'],
    [null, 'not run (no PostgreSQL)'],
    [null, 'not run (no PostgreSQL)'],
  ])
})

test('behavior: the sign-in line is judged against every core and, apart, against the cores PostgreSQL and the load generator left; a run of record without their CPU is not judged', () => {
  const signIn = (databaseCpuMsPerVerify?: number | null, loadGeneratorCpuMsPerVerify?: number) => ({
    accounts: 1000,
    concurrency: 200,
    verifiesPerSecond: 700,
    latencyMs: { p50: 100, p99: 150, max: 160 },
    errors: 0,
    apiCpuMsPerVerify: 0.8,
    ...(databaseCpuMsPerVerify !== undefined && { databaseCpuMsPerVerify }),
    ...(loadGeneratorCpuMsPerVerify !== undefined && { loadGeneratorCpuMsPerVerify }),
  })
  const signInLines = (result: Omit<ClosingHourResult, 'budget'>) =>
    closingHourBudget(result).filter((line) => line.budget.startsWith('sign-in'))
  // 700 verifies/s, 0.4 ms of the others' CPU per verify: they took 0.28 of the 2 cores.
  const [everyCore, othersLeft] = signInLines({ ...measured(run(547, 0.6, 0.2)), signIn: signIn(0.3, 0.1) })
  expect(everyCore).toMatchObject({ limit: 798, pass: false })
  expect(othersLeft).toMatchObject({ limit: 686.3, pass: true })
  expect(othersLeft?.budget).toContain('× the cores the others left (2 − 0.28)')
  const [, older] = signInLines({ ...measured(run(547, 0.6, 0.2)), signIn: signIn() })
  expect(older).toMatchObject({ pass: null })
  expect(older?.note).toContain('not measured')
})
