// npm run webhooks (scripts/webhooks.ts) run as the operator runs it, on a database the server would use
// (PostgreSQL under scripts/with-postgres.sh, else an embedded database in a folder): `test <name>` sends a
// signed webhook.test to a real receiver and logs it; `deliveries [--failed]` lists the log; nothing printed
// names a secret or a URL.
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { openDatabase } from '@guildhall/api/database'
import {
  startWebhookReceiver,
  type TestDatabase,
  testDatabase,
  type WebhookReceiver,
} from '@guildhall/api/testbed'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..')
const SECRET = `whsec_${randomBytes(32).toString('base64')}`
let receiver: WebhookReceiver
let dataDir: string | undefined
let postgres: TestDatabase | undefined
let databaseEnv: Record<string, string>

beforeAll(async () => {
  receiver = await startWebhookReceiver()
  receiver.answer = (request) => (request.path.endsWith('/broken') ? 500 : 200)
  if (process.env.TEST_DATABASE_URL) {
    postgres = await testDatabase()
    databaseEnv = { DATABASE_URL: postgres.url as string }
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-webhooks-cli-'))
    const database = await openDatabase({ dataDir })
    await database.migrate()
    await database.close()
    databaseEnv = { DATA_DIR: dataDir }
  }
}, 60_000)

afterAll(async () => {
  await receiver?.close()
  await postgres?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const WEBHOOKS = () =>
  JSON.stringify([
    { name: 'ok', url: `${receiver.url}/ok`, secret: SECRET, events: ['proposal.created'] },
    { name: 'broken', url: `${receiver.url}/broken`, preset: 'slack', events: ['proposal.closed'] },
  ])

async function webhooks(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH,
    ...databaseEnv,
    WEBHOOKS: WEBHOOKS(),
    PUBLIC_ORIGIN: 'https://dao.example.org',
  }
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts/webhooks.ts'), ...args],
      { cwd: ROOT, env },
    )
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

test('npm run webhooks -- test <name>: a signed webhook.test is delivered (verified with standardwebhooks) or reported not delivered (exit 1); deliveries lists both, --failed the failure; an unknown name exits 2 naming the configured ones; no secret or URL is printed', async () => {
  const ok = await webhooks('test', 'ok')
  expect(ok.code, ok.stderr).toBe(0)
  expect(ok.stdout).toMatch(/^Test test:\d+ delivered to ok \(standard\): answered 200\.\n$/)
  const [request] = receiver.received.filter((r) => r.path === '/hook/ok')
  expect(
    new Webhook(SECRET).verify(request?.body ?? '', request?.headers as Record<string, string>),
  ).toMatchObject({
    type: 'webhook.test',
    data: { url: 'https://dao.example.org/' },
  })

  const broken = await webhooks('test', 'broken')
  expect(broken.code).toBe(1)
  expect(broken.stdout).toMatch(/^Test test:\d+ to broken \(slack\) NOT delivered: answered 500\.\n$/)

  const log = await webhooks('deliveries')
  expect(log.code).toBe(0)
  const lines = log.stdout.trim().split('\n')
  expect(lines).toHaveLength(2)
  expect(lines[0]).toMatch(/ broken {2}webhook\.test {2}test:\d+ {2}failed {2}1 attempt {2}answered 500$/)
  expect(lines[1]).toMatch(/ ok {2}webhook\.test {2}test:\d+ {2}delivered {2}1 attempt {2}delivered \d{4}-/)
  const failed = await webhooks('deliveries', '--failed')
  expect(failed.stdout.trim().split('\n')).toEqual([lines[0]])

  const unknown = await webhooks('test', 'nope')
  expect(unknown.code).toBe(2)
  expect(unknown.stderr).toContain('No webhook named nope in WEBHOOKS; it names: ok, broken.')
  const usage = await webhooks('send')
  expect(usage.code).toBe(2)
  expect(usage.stderr).toContain('Usage: npm run webhooks -- deliveries')

  for (const output of [ok, broken, log, failed, unknown].flatMap((r) => [r.stdout, r.stderr])) {
    expect(output).not.toContain(SECRET.slice(6))
    expect(output).not.toContain(receiver.url)
  }
}, 120_000)
