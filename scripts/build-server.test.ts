// The production server as plain JavaScript (scripts/build-server.ts, ADR 066): built here into a folder of
// its own (`npm test` runs this before its `npm run build` step), then started with plain `node`, no
// TypeScript loader, as an operator runs it: a fresh PGlite data dir, the demo chain, real signatures.
import { readFile, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { startDemoChain, testEnv } from '@guildhall/api/demo'
import {
  type ApiProcess,
  demoDomain,
  member,
  signProposal,
  signVote,
  startApiProcess,
  stopApiProcess,
} from '@guildhall/api/testbed'
import { createPublicClient, createTestClient, http } from 'viem'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { buildServer, EXTERNAL, refuseFileFinders, type ServerBuild } from './build-server.ts'

const ROOT = resolve(import.meta.dirname, '..')
/** Inside the repository, so the bundle's external packages resolve from node_modules as in apps/api/dist. */
const OUT_DIR = join(ROOT, 'node_modules/.cache', `guildhall-server-test-${process.pid}`)

let build: ServerBuild
let chain: Awaited<ReturnType<typeof startDemoChain>> | undefined
let api: ApiProcess | undefined
let dataDir: string

beforeAll(async () => {
  build = await buildServer({ outDir: OUT_DIR })
  dataDir = join(OUT_DIR, 'data')
  chain = await startDemoChain()
  // A snapshot a block before the head follows the demo's delegations.
  await createTestClient({ mode: 'anvil', transport: http(chain.anvil.url) }).mine({ blocks: 2 })
}, 120_000)

afterAll(async () => {
  if (api) await stopApiProcess(api, 'SIGKILL')
  await chain?.anvil.stop()
  await rm(OUT_DIR, { recursive: true, force: true })
}, 30_000)

test('the build: one ES module with its source map, the migrations and (when the sources have it) the signature worker beside it; nothing of TypeScript left', async () => {
  const code = await readFile(build.serverFile, 'utf8')
  expect(build.bytes).toBeGreaterThan(0)
  expect(code).not.toMatch(/from\s*["'][^"']+\.ts["']|import\(\s*["'][^"']+\.ts["']/)
  expect(code).toContain('//# sourceMappingURL=server.js.map')
  await expect(readFile(join(OUT_DIR, 'server.js.map'), 'utf8')).resolves.toContain('apps/api/src/server.ts')
  const journal = (f: string) => readFile(join(f, 'meta/_journal.json'), 'utf8')
  expect(await journal(join(OUT_DIR, 'drizzle'))).toBe(await journal(join(ROOT, 'apps/api/drizzle')))
  const worker = (dir: string) => readFile(join(dir, 'recover-worker.mjs'), 'utf8').catch(() => 'absent')
  expect(await worker(OUT_DIR)).toBe(await worker(join(ROOT, 'apps/api/src/platform/signatures')))
})

test('behavior: the built server runs under plain node (no TypeScript loader): it migrates a fresh data dir, answers /api/health, its API document and page, the token holders from its index, and takes a signed proposal and vote', async () => {
  const demo = chain as NonNullable<typeof chain>
  api = await startApiProcess(
    { ...testEnv(demo.anvil.url, demo.deployment), SIGN_IN: 'off', DATA_DIR: dataDir },
    { built: build.serverFile },
  )
  // The process is node and the bundle, nothing else: no --import of tsx, no NODE_OPTIONS.
  const pid = api.child.pid as number
  const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean)
  expect(cmdline).toEqual([process.execPath, build.serverFile])
  expect(await readFile(`/proc/${pid}/environ`, 'utf8')).not.toContain('NODE_OPTIONS=')

  const get = async (path: string) => {
    const response = await fetch(`${api?.origin}${path}`)
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      body: await response.text(),
    }
  }
  const health = await get('/api/health')
  expect(health.status).toBe(200)
  expect(JSON.parse(health.body)).toMatchObject({ status: 'ok' })
  const document = await get('/api/openapi.json')
  expect(JSON.parse(document.body)).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) })
  // The reference page's files come from @fastify/swagger-ui's own folder (an external package).
  const page = await get('/api/docs/')
  expect(page).toMatchObject({ status: 200, type: expect.stringContaining('text/html') })
  // The token index (bundled viem and drizzle, PGlite external) follows the chain up to its head.
  const head = await createPublicClient({ transport: http(demo.anvil.url) }).getBlockNumber()
  const holders = demo.deployment.members.filter((m) => m.balance !== '0').length
  await vi.waitFor(
    async () =>
      expect(JSON.parse((await get('/api/token/holders')).body)).toEqual({
        holders,
        blockNumber: String(head),
      }),
    { timeout: 60_000, interval: 200 },
  )

  // A proposal and a vote, signed by the demo's members: the write path, the signature check and the log.
  const domain = demoDomain(demo.deployment)
  const proposal = await signProposal(member(1), domain, { snapshot: Number(head) - 1 })
  const post = (path: string, body: unknown) =>
    fetch(`${api?.origin}${path}`, {
      method: 'POST',
      headers: { origin: api?.origin as string, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const created = await post('/api/proposals', { message: proposal.message, signature: proposal.signature })
  expect(created.status).toBe(201)
  const vote = await signVote(member(2), domain, { proposal: proposal.id, choices: [1] })
  const cast = await post(`/api/proposals/${proposal.id}/votes`, {
    message: vote.message,
    signature: vote.signature,
  })
  expect(cast.status).toBe(201)
  expect(await cast.json()).toMatchObject({ id: vote.id, created: true })
}, 180_000)

test('error: a bundled library that finds files from __dirname fails the build with its name; our code and other libraries pass', async () => {
  // @fastify/swagger reads its own package.json from __dirname: what EXTERNAL keeps out of the bundle.
  await expect(
    refuseFileFinders([
      'apps/api/src/server.ts',
      'node_modules/fastify/fastify.js',
      'node_modules/@fastify/swagger/lib/util/read-package-json.js',
    ]),
  ).rejects.toThrow(/add them to EXTERNAL in scripts\/build-server\.ts: @fastify\/swagger$/)
  await expect(
    refuseFileFinders(['apps/api/src/server.ts', 'node_modules/fastify/fastify.js']),
  ).resolves.toBeUndefined()
})

test("every package the bundle leaves out (and the signature worker imports, with core's recovery behind it) is a production dependency: an operator who installs with npm ci --omit=dev has it", async () => {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>
  }
  const packagesImported = async (file: string) =>
    [...(await readFile(join(ROOT, file), 'utf8')).matchAll(/^import .* from '([^'.][^']*)'/gm)]
      .map((match) => match[1] as string)
      .filter((specifier) => !specifier.startsWith('node:'))
      .map((specifier) =>
        specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/'),
      )
  const workerImports = [
    ...(await packagesImported('apps/api/src/platform/signatures/recover-worker.mjs')),
    ...(await packagesImported('packages/core/src/wasm-recover.mjs')),
  ]
  expect(workerImports).toEqual(['@guildhall/core', 'tiny-secp256k1', 'viem'])
  for (const name of [...EXTERNAL, ...workerImports]) {
    const entry = lock.packages[`node_modules/${name}`]
    expect(entry, name).toBeDefined()
    expect({ name, dev: entry?.dev ?? false, devOptional: entry?.devOptional ?? false }).toEqual({
      name,
      dev: false,
      devOptional: false,
    })
  }
})
