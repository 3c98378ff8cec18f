// `npm test`: every check, in order, stopping at the first failure: lint, types, Chromium (found or
// installed), unit and integration tests (the API's once more against PostgreSQL, with the cluster tests
// behind HAProxy), the production build, then the end-to-end suite in Chromium.
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { ensureChromium, ensureHaproxy, ensurePostgres } from './system-deps.ts'

const root = resolve(import.meta.dirname, '..')
/** A check: true when it passed. One that throws (a system package missing) fails with its message. */
type Step = { name: string; run: () => boolean }

const command = (name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Step => ({
  name,
  run: () =>
    spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status === 0,
})

let chromium = ''
const steps: Step[] = [
  command('lint and format (Biome), dead code and dependencies (knip)', 'npm', ['run', '--silent', 'lint']),
  command('types (tsc)', 'npm', ['run', '--silent', 'typecheck']),
  // Before the unit tests: the bench's page probe is tested in Chromium too (scripts/bench/web/page.test.ts).
  {
    name: 'Chromium',
    run: () => {
      chromium = ensureChromium()
      process.env.CHROMIUM_PATH = chromium
      console.log(`Using ${chromium}`)
      return true
    },
  },
  {
    name: 'unit and integration tests (Vitest)',
    run: () => {
      // The shipped proxy configuration's test (apps/api/src/fault/haproxy.test.ts) runs HAProxy.
      ensureHaproxy()
      return command('', 'npx', ['vitest', 'run']).run()
    },
  },
  {
    name: 'API integration tests against PostgreSQL',
    run: () => {
      const pgBin = ensurePostgres()
      // The cluster tests (apps/api/src/fault/cluster.postgres.test.ts, scripts/cluster.postgres.test.ts)
      // run HAProxy.
      ensureHaproxy()
      // The API's tests, and every other test that needs PostgreSQL (`npm run cluster`'s).
      return command(
        '',
        'bash',
        ['scripts/with-postgres.sh', 'npx', 'vitest', 'run', 'apps/api', '.postgres.test.ts'],
        { PG_BIN: pgBin },
      ).run()
    },
  },
  command('production build', 'npm', ['run', '--silent', 'build']),
  {
    name: 'end-to-end tests (Playwright, Chromium)',
    run: () => command('', 'npx', ['playwright', 'test', '-c', 'e2e'], { CHROMIUM_PATH: chromium }).run(),
  },
]

const results: { name: string; ok: boolean; seconds: number }[] = []
for (const step of steps) {
  console.log(`\n▶ ${step.name}`)
  const started = performance.now()
  let ok = false
  try {
    ok = step.run()
  } catch (error) {
    console.error((error as Error).message)
  }
  results.push({ name: step.name, ok, seconds: (performance.now() - started) / 1000 })
  if (!ok) break
}

console.log('\nSummary')
for (const r of results) console.log(`  ${r.ok ? '✔' : '✘'} ${r.name} (${r.seconds.toFixed(1)} s)`)
const failed = results.find((r) => !r.ok)
if (failed) {
  console.error(`\nFailed: ${failed.name}`)
  process.exit(1)
}
console.log('\nAll checks passed.')
