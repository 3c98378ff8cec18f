// The thread recount (ADR 052) against what the server writes, on a real anvil and the test database
// (PGlite, or PostgreSQL under scripts/with-postgres.sh): a Safe member's key, authorised through ERC-1271,
// is checked on the chain; the same authorisation signed by the Safe's owner instead is reported; and
// `npm run recount` reads a topic's and a proposal's thread from the server by their page addresses.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { type DiscussionKeyMessage, discussionKeyId, LOCAL_CHAIN_ID, logEntryHash } from '@guildhall/core'
import { recountThread, type ThreadBundle } from '@guildhall/core/recount'
import { signHashAsSafe, signMessageAsSafe } from '@guildhall/devchain/safe'
import { createPublicClient, http, type PrivateKeyAccount, type PublicClient } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  ada,
  anvil,
  app,
  authoriseKey,
  commentMessage,
  createProposal,
  createTopic,
  domain,
  get,
  post,
  postComment,
  safes,
  signIn,
  signWith,
  topicMessage,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { nowSeconds } from '../../testbed/signers.ts'

useDiscussionBed()

const chain = () => createPublicClient({ transport: http(anvil.url) }) as PublicClient
const short = (id: string) => `${id.slice(0, 10)}…`

describe('the thread recount against the server', () => {
  test('behavior: a Safe member’s key (authorised through ERC-1271) verifies on the chain; its authorisation re-signed by the owner alone is reported, and the topic its key signed with it', async () => {
    const safe = safes.oneOfOne.address
    const cookie = await signIn({
      address: safe,
      signMessage: ({ message }: { message: string }) =>
        signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message }),
    } as unknown as PrivateKeyAccount)
    const key = privateKeyToAccount(generatePrivateKey())
    const timestamp = nowSeconds()
    const message: DiscussionKeyMessage = {
      member: safe,
      key: key.address,
      scopes: ['comment'],
      expires: timestamp + 3600,
      timestamp,
    }
    const signature = await signHashAsSafe({
      safe,
      chainId: LOCAL_CHAIN_ID,
      owners: [ada],
      hash: discussionKeyId(domain, message),
    })
    expect((await post('/api/discussion/keys', { message, signature }, cookie)).statusCode).toBe(201)
    const topic = await signWith(key, 'topic', topicMessage(safe))
    const posted = await post(
      '/api/discussion/topics',
      { message: topic.message, signature: topic.signature },
      cookie,
    )
    expect(posted.statusCode).toBe(201)

    const bundle = (await get(`/api/threads/${topic.id}/bundle`)).json() as ThreadBundle
    expect(await recountThread(bundle, { client: chain() })).toEqual({
      matches: true,
      problems: [],
      takedowns: [],
      messagesChecked: 1,
      keysChecked: 1,
    })

    // A forged bundle: the owner's own signature of the key's digest, logged as if it were the Safe's.
    const [authorisation] = bundle.keys
    if (!authorisation) throw new Error('the bundle has no key')
    authorisation.signature = await ada.sign({ hash: authorisation.id })
    const { hash: _, ...unhashed } = { ...authorisation.log, signature: authorisation.signature }
    authorisation.log = { ...unhashed, hash: logEntryHash(unhashed) }
    const forged = await recountThread(bundle, { client: chain() })
    expect(forged.problems).toEqual([
      `The authorisation of key ${key.address} by ${safe} is not signed by ${safe}.`,
      `Topic ${short(topic.id)} is not valid: it is signed by key ${key.address}, which its author ${safe} has not authorised.`,
      `Log entry ${authorisation.log.seq + 1} does not link to entry ${authorisation.log.seq} before it.`,
    ])
  })

  test('behavior: `npm run recount -- <url>/discussions/0x… --rpc <url>` and `<url>/proposals/0x… --discussion` read the thread from the server and print "Verified" (exit 0)', async () => {
    const { key } = await authoriseKey(ada)
    const topic = await createTopic(key, ada)
    await postComment(key, ada, commentMessage(ada.address, topic, { body: 'On the topic.' }))
    const proposal = await createProposal(ada)
    await postComment(key, ada, commentMessage(ada.address, proposal, { body: 'On the proposal.' }))
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    const recount = (...args: string[]) =>
      promisify(execFile)('npx', ['tsx', 'scripts/recount.ts', ...args, '--rpc', anvil.url], {
        cwd: new URL('../../../../', import.meta.url).pathname,
        encoding: 'utf8',
        timeout: 60_000,
      })
    // execFile rejects on a non-zero exit code, so each answer here means exit code 0.
    const onTopic = await recount(`${url}/discussions/${topic}`)
    expect(onTopic.stdout).toContain(
      'Verified: 2 messages, all signed by authorised keys and in the log (1 key checked).',
    )
    const onProposal = await recount(`${url}/proposals/${proposal}`, '--discussion')
    expect(onProposal.stdout).toContain(
      'Verified: 1 message, all signed by authorised keys and in the log (1 key checked).',
    )
  }, 130_000)
})
