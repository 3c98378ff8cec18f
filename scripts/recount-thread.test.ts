// `npm run recount` on a thread bundle file (ADR 052): told from a result bundle by its format, verified
// with exit code 0, an altered comment reported with exit code 1. The bundle is signed for real; every
// member is an externally owned account, so the CLI never asks its RPC (nothing listens there).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import {
  governanceDomain,
  LOG_GENESIS_HASH,
  type LogEntry,
  logEntryHash,
  signWithDiscussionKey,
} from '@guildhall/core'
import { THREAD_BUNDLE_FORMAT, type ThreadBundle } from '@guildhall/core/recount'
import { type Hex, zeroHash } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'

const root = new URL('../', import.meta.url).pathname
const NOBODY_LISTENS = 'http://127.0.0.1:9'
const domain = governanceDomain({ chainId: 31337, token: '0x5FbDB2315678afecb367f032d93F642f64180aa3' })
const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

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

/** Ada authorises a key and comments on a proposal's thread with it: the bundle a server would write. */
async function adaComments(): Promise<{ bundle: ThreadBundle; comment: Hex }> {
  const log: LogEntry[] = []
  const logged = (kind: LogEntry['kind'], messageId: Hex, signature: Hex) => {
    const unhashed = {
      seq: log.length + 1,
      kind,
      messageId,
      signature,
      prevHash: log.at(-1)?.hash ?? LOG_GENESIS_HASH,
    }
    const entry = { ...unhashed, hash: logEntryHash(unhashed) }
    log.push(entry)
    return entry
  }
  const key = privateKeyToAccount(generatePrivateKey())
  const now = 1_800_000_000
  const authorisation = await signWithDiscussionKey(ada, domain, 'discussion-key', {
    member: ada.address,
    key: key.address,
    scopes: ['comment'],
    expires: now + 86_400,
    timestamp: now,
  })
  const thread: Hex = `0x${'ab'.repeat(32)}`
  const comment = await signWithDiscussionKey(key, domain, 'comment', {
    author: ada.address,
    thread,
    parent: zeroHash,
    replaces: zeroHash,
    body: 'Fix the roof first.',
    mentions: [],
    timestamp: now + 60,
  })
  return {
    comment: comment.id,
    bundle: {
      format: THREAD_BUNDLE_FORMAT,
      domain,
      thread: { id: thread, kind: 'proposal' },
      moderators: [],
      keys: [{ ...authorisation, log: logged('discussion-key', authorisation.id, authorisation.signature) }],
      revocations: [],
      messages: [{ kind: 'comment', ...comment, log: logged('comment', comment.id, comment.signature) }],
      published: {
        comments: [{ id: comment.id, versionId: comment.id, withdrawn: false, hidden: false, reactions: [] }],
      },
    },
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
    const { bundle, comment } = await adaComments()
    const clean = join(dir, 'clean.json')
    await writeFile(clean, JSON.stringify(bundle))
    const verified = await cli(clean, '--rpc', NOBODY_LISTENS)
    expect(verified.stdout).toContain(
      'Verified: 1 messages, all signed by authorised keys and in the log (1 keys checked).',
    )
    expect(verified.code).toBe(0)

    const [message] = bundle.messages
    if (message?.kind !== 'comment') throw new Error('not built')
    message.message.body = 'Fix the doors first.'
    const altered = join(dir, 'altered.json')
    await writeFile(altered, JSON.stringify(bundle))
    const differs = await cli(altered, '--rpc', NOBODY_LISTENS)
    expect(differs.stdout).toContain(
      `The thread DIFFERS (2):\n  - Comment ${comment.slice(0, 10)}… was altered: its text does not match its signature.\n  - Comment ${comment.slice(0, 10)}… is published, but no valid signed message in the log makes it.`,
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
