// `npm run recount` on a thread bundle file (ADR 052): told from a result bundle by its format, verified
// with exit code 0, an altered reply reported with exit code 1. The bundle is signed for real; every
// member is an externally owned account, so the CLI never asks its RPC (nothing listens there).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { signedThreadBundle } from '@guildhall/devchain/thread-bundle'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const root = new URL('../', import.meta.url).pathname
const NOBODY_LISTENS = 'http://127.0.0.1:9'
/** `npm run recount -- <args>`: its output and exit code. */
async function cli(...args: string[]) {
  try {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/recount.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { code: 0, stdout, stderr: '' }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('npm run recount on a thread bundle', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guildhall-thread-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test('behavior: `npm run recount -- <thread bundle file> --rpc <url>` prints "Verified" and exits 0; with a comment altered it prints the problem and exits 1', async () => {
    const { bundle, ids } = await signedThreadBundle()
    const clean = join(dir, 'clean.json')
    await writeFile(clean, JSON.stringify(bundle))
    const verified = await cli(clean, '--rpc', NOBODY_LISTENS)
    expect(verified.stdout).toContain(
      'Verified: 3 messages, all signed by authorised keys and in the log (2 keys checked).',
    )
    expect(verified.code).toBe(0)

    const reply = bundle.messages[1]
    if (reply?.kind !== 'comment') throw new Error('not built')
    reply.message.body = 'Never.'
    const altered = join(dir, 'altered.json')
    await writeFile(altered, JSON.stringify(bundle))
    const differs = await cli(altered, '--rpc', NOBODY_LISTENS)
    expect(differs.stdout).toContain(
      `The thread DIFFERS (2):\n  - Comment ${ids.reply.slice(0, 10)}… was altered: its text does not match its signature.\n  - Comment ${ids.reply.slice(0, 10)}… is published, but no valid signed message in the log makes it.`,
    )
    expect(differs.code).toBe(1)
  }, 130_000)

  test('behavior: a result bundle file still goes to the result recount, and --discussion without a proposal address is refused (exit 2)', async () => {
    const result = join(dir, 'result.json')
    await writeFile(result, JSON.stringify({ format: 'guildhall-result-bundle/1' }))
    const notResult = await cli(result, '--rpc', NOBODY_LISTENS)
    expect(notResult.stderr).toContain('This is not a Guildhall result bundle')
    expect(notResult.code).toBe(2)
    const misuse = await cli(result, '--discussion', '--rpc', NOBODY_LISTENS)
    expect(misuse.stderr).toContain("--discussion takes a proposal's address")
    expect(misuse.code).toBe(2)
  }, 130_000)
})
