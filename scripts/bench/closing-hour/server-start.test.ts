// The bench's measure of the production server's start (closing-hour's server-start.ts, ADR 066), run once
// per server here: both start from the migrated data dir and are measured listening; the figures themselves
// are the bench's (docs/benchmarks.md), never judged by a test.
import { expect, test } from 'vitest'
import { measureServerStart } from './server-start.ts'

test('measureServerStart: the tsx server and the built one each start, timed from the spawn to listening, with their resident memory and CPU time', async () => {
  const { tsx, built } = await measureServerStart({ runs: 1 })
  for (const figures of [tsx, built]) {
    expect(figures.startMs).toBeGreaterThan(0)
    expect(figures.cpuMs).toBeGreaterThan(0)
    // A Node process with the app and PGlite loaded: tens of MiB at the very least.
    expect(figures.rssMiB).toBeGreaterThan(50)
  }
}, 240_000)
