// The committed migrations (apps/api/drizzle) must match schema.ts. drizzle-kit itself decides: it generates
// into a temporary copy of the folder, diffing schema.ts against the last committed snapshot, and must find
// nothing to write. (Comparing SQL text by hand would re-implement drizzle-kit's differ; running `generate`
// into an empty folder would always write a full migration.) Fix a failure with `npm run db:generate`.
import { execFile } from 'node:child_process'
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, test } from 'vitest'
import { migrationsFolder } from './client.ts'

const run = promisify(execFile)
const apiRoot = fileURLToPath(new URL('../../..', import.meta.url))
const drizzleKitBin = join(dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs')

const listFiles = async (folder: string) =>
  (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort()

test('the committed migrations match schema.ts (drizzle-kit generate finds no change)', async () => {
  const out = await mkdtemp(join(tmpdir(), 'guildhall-migrations-'))
  try {
    await cp(migrationsFolder, out, { recursive: true })
    const before = await listFiles(out)
    // drizzle-kit prefixes `--out` with '../../db/' (so it must be relative) and exits 0 even when it fails,
    // hence the checks on its output.
    const { stdout, stderr } = await run(
      process.execPath,
      [
        drizzleKitBin,
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        './src/platform/db/schema.ts',
        '--out',
        relative(apiRoot, out),
      ],
      { cwd: apiRoot, timeout: 60_000 },
    )
    expect({ stdout, stderr }).toEqual({
      stdout: expect.stringContaining('No schema changes, nothing to migrate'),
      stderr: '',
    })
    expect(await listFiles(out)).toEqual(before)
  } finally {
    await rm(out, { recursive: true, force: true })
  }
}, 60_000)

test('every migration in the journal has its SQL file and snapshot, and there are no others', async () => {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    dialect: string
    entries: { idx: number; tag: string }[]
  }
  expect(journal.dialect).toBe('postgresql')
  const files = await listFiles(migrationsFolder)
  expect(files).toEqual(
    [
      ...journal.entries.map((e) => `${e.tag}.sql`),
      ...journal.entries.map((e) => join('meta', `${String(e.idx).padStart(4, '0')}_snapshot.json`)),
      join('meta', '_journal.json'),
    ].sort(),
  )
})
