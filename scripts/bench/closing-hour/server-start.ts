// The production server's start against today's (ADR 066): the same server.ts run from its TypeScript under
// tsx, and built into plain JavaScript (scripts/build-server.ts) under plain node. Each start is timed from
// the spawn to listening (its 'ready' over IPC), its resident memory read once it listens, and the CPU time it
// took to get there (its own process.cpuUsage(): a count of work, less moved by a busy machine). Every start
// gets a fresh copy of one PGlite data dir migrated before any timing, and the demo DAO's chain, so it
// measures a start (the token index begins following the chain), never the first migration.
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { openDatabase } from '@guildhall/api/database'
import { startDemoChain, testEnv } from '@guildhall/api/demo'
import { startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { getFreePort } from '@guildhall/devchain/anvil'
import { buildServer } from '../../build-server.ts'
import { cpuMs, rssMiB } from '../harness/processes.ts'
import { spread } from '../harness/stats.ts'

const root = resolve(import.meta.dirname, '../../..')

type StartFigures = { startMs: number; rssMiB: number; cpuMs: number }
export type ServerStart = { tsx: StartFigures; built: StartFigures }

/** The median of `runs` starts of each (3 by default), tsx and built taking turns so both see the same load. */
export async function measureServerStart({ runs = 3 }: { runs?: number } = {}): Promise<ServerStart> {
  // Inside the repository: the bundle's external packages resolve from its node_modules.
  // node_modules/.cache exists only once some tool made it (not after a bare npm ci).
  await mkdir(join(root, 'node_modules/.cache'), { recursive: true })
  const work = await mkdtemp(join(root, 'node_modules/.cache/guildhall-server-start-'))
  const chain = await startDemoChain()
  try {
    const { serverFile } = await buildServer({ outDir: join(work, 'dist') })
    const template = join(work, 'migrated')
    const database = await openDatabase({ dataDir: template })
    await database.migrate()
    await database.close()

    const samples = { tsx: [] as StartFigures[], built: [] as StartFigures[] }
    for (let run = 0; run < runs; run++) {
      for (const mode of ['tsx', 'built'] as const) {
        const dataDir = join(work, `${mode}-${run}`)
        await cp(template, dataDir, { recursive: true })
        const port = await getFreePort()
        const env = { ...testEnv(chain.anvil.url, chain.deployment), DATA_DIR: dataDir }
        const started = performance.now()
        const api = await startApiProcess(env, { port, ...(mode === 'built' && { built: serverFile }) })
        const startMs = performance.now() - started
        samples[mode].push({
          startMs,
          rssMiB: rssMiB(api.child.pid as number),
          cpuMs: cpuMs(await api.cpu()),
        })
        await stopApiProcess(api, 'SIGTERM')
      }
    }
    const median = (figures: StartFigures[]): StartFigures => ({
      startMs: spread(figures.map((f) => f.startMs)).median,
      rssMiB: spread(figures.map((f) => f.rssMiB)).median,
      cpuMs: spread(figures.map((f) => f.cpuMs)).median,
    })
    return { tsx: median(samples.tsx), built: median(samples.built) }
  } finally {
    await chain.anvil.stop()
    await rm(work, { recursive: true, force: true })
  }
}
