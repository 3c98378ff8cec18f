// Discussion writes over HTTP (in-process), against a real anvil, real Safes, real signatures and the test
// database (PGlite, or PostgreSQL under scripts/with-postgres.sh): keys authorised by a wallet (an EOA's and
// a Safe's), comments and edits signed by them, and every refusal with its status and error, nothing stored.
import {
  DISCUSSION_LIMITS,
  type DiscussionKeyMessage,
  discussionKeyId,
  discussionSigner,
  type KeyRevocationMessage,
  LOCAL_CHAIN_ID,
} from '@guildhall/core'
import { signHashAsSafe, signMessageAsSafe } from '@guildhall/devchain/safe'
import { eq } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { type Hex, zeroHash } from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  ada,
  authoriseKey,
  ben,
  cleo,
  commentMessage,
  cookies,
  createTopic,
  database,
  domain,
  get,
  iris,
  post,
  postComment,
  safes,
  signIn,
  signWith,
  storedCounts,
  useDiscussionBed,
} from '../../testbed/beds/discussion.ts'
import { nowSeconds } from '../../testbed/signers.ts'
import { discussionMessages, governanceLog, threads } from '../platform/db/schema.ts'
import { silentObserver } from '../platform/observer.ts'
import { recordMessage } from './signed.ts'

useDiscussionBed()

/** The answer is `status` with `error`, and nothing was stored: every table and the log as before. */
async function expectRefused(
  send: () => Promise<LightMyRequestResponse>,
  status: number,
  error: string,
): Promise<string> {
  const before = await storedCounts()
  const response = await send()
  expect({ status: response.statusCode, error: response.json().error }).toEqual({ status, error })
  expect(response.json().message).toEqual(expect.any(String))
  expect(await storedCounts()).toEqual(before)
  return response.json().message
}

/** POST /api/comments of a signed comment (or edit) in `member`'s session. */
const sendComment = (signed: { message: unknown; signature: Hex }, member: PrivateKeyAccount) =>
  post('/api/comments', { message: signed.message, signature: signed.signature }, cookies.get(member.address))

describe('keys and a signed comment', () => {
  test('behavior: an authorised key signs a comment that verifies, and its log entry is there', async () => {
    const { key, response } = await authoriseKey(ada)
    expect(response.statusCode).toBe(201)
    expect(response.json().key).toMatchObject({ key: key.address, member: ada.address, revokedAt: null })
    const thread = await createTopic(key, ada)
    const { response: posted, id, signed } = await postComment(key, ada, commentMessage(ada.address, thread))
    expect(posted.statusCode).toBe(201)
    const comment = posted.json().comment
    expect(comment).toMatchObject({
      id,
      thread,
      parent: null,
      depth: 0,
      author: ada.address,
      body: 'A first thought.',
    })
    // The stored message verifies: its signature recovers the key Ada authorised.
    const [stored] = await database.db.select().from(discussionMessages).where(eq(discussionMessages.id, id))
    expect(stored).toMatchObject({
      kind: 'comment',
      threadId: thread,
      key: key.address,
      signature: signed.signature,
    })
    expect(discussionSigner(domain, 'comment', signed.message, signed.signature)).toBe(key.address)
    const [entry] = await database.db.select().from(governanceLog).where(eq(governanceLog.messageId, id))
    expect(entry).toMatchObject({
      kind: 'comment',
      seq: comment.logSeq,
      signature: signed.signature,
      proposalId: null,
    })
    const keys = await get('/api/discussion/keys', cookies.get(ada.address))
    expect(keys.json().items.map((item: { key: string }) => item.key)).toContain(key.address)
  })

  test('behavior: a Safe member authorises a key through the contract-signature path (ERC-1271)', async () => {
    const safe = safes.oneOfOne.address
    // The Safe signs in as a Safe app does: its owner's signature of the SIWE message, through ERC-1271.
    const safeSigner = {
      address: safe,
      signMessage: ({ message }: { message: string }) =>
        signMessageAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], message }),
    } as unknown as Parameters<typeof signIn>[0]
    const cookie = await signIn(safeSigner)
    const key = privateKeyToAccount(generatePrivateKey())
    const timestamp = nowSeconds()
    const message: DiscussionKeyMessage = {
      member: safe,
      key: key.address,
      scopes: ['comment'],
      expires: timestamp + 3600,
      timestamp,
    }
    const id = discussionKeyId(domain, message)
    // The owner's own signature is not the Safe's.
    const ownersOwn = await signWith(ada, 'discussion-key', message)
    await expectRefused(
      () => post('/api/discussion/keys', { message, signature: ownersOwn.signature }, cookie),
      401,
      'bad_signature',
    )
    const signature = await signHashAsSafe({ safe, chainId: LOCAL_CHAIN_ID, owners: [ada], hash: id })
    const response = await post('/api/discussion/keys', { message, signature }, cookie)
    expect(response.statusCode).toBe(201)
    expect(response.json().key).toMatchObject({ key: key.address, member: safe })
    const [entry] = await database.db.select().from(governanceLog).where(eq(governanceLog.messageId, id))
    expect(entry?.kind).toBe('discussion-key')
  })

  test('behavior: a key is revoked by the key itself or by the wallet; a revoked key signs nothing more', async () => {
    const { key } = await authoriseKey(ben)
    const thread = await createTopic(key, ben)
    const revocation: KeyRevocationMessage = {
      member: ben.address,
      key: key.address,
      timestamp: nowSeconds(),
    }
    const byKey = await signWith(key, 'key-revocation', revocation)
    const revoked = await post(
      '/api/discussion/keys/revoke',
      { message: byKey.message, signature: byKey.signature },
      cookies.get(ben.address),
    )
    expect(revoked.statusCode).toBe(200)
    expect(revoked.json().key.revokedAt).toBe(revocation.timestamp)
    const signed = await signWith(key, 'comment', commentMessage(ben.address, thread))
    await expectRefused(() => sendComment(signed, ben), 403, 'key_revoked')
    // The wallet revokes another key.
    const { key: second } = await authoriseKey(ben)
    const byWallet = await signWith(ben, 'key-revocation', { ...revocation, key: second.address })
    const response = await post(
      '/api/discussion/keys/revoke',
      { message: byWallet.message, signature: byWallet.signature },
      cookies.get(ben.address),
    )
    expect(response.statusCode).toBe(200)
  })
  test('behavior: a revocation committed after a comment’s key checks and before its write refuses the write (403 key_revoked), so no comment is logged after its key’s revocation', async () => {
    const { key } = await authoriseKey(ben)
    const thread = await createTopic(key, ben)
    const comment = await signWith(key, 'comment', commentMessage(ben.address, thread))
    // Its checks (`checkKeySigned`) pass at this point; the revocation commits before its write.
    const revocation = await signWith(ben, 'key-revocation', {
      member: ben.address,
      key: key.address,
      timestamp: nowSeconds(),
    })
    const revoked = await post(
      '/api/discussion/keys/revoke',
      { message: revocation.message, signature: revocation.signature },
      cookies.get(ben.address),
    )
    expect(revoked.statusCode, revoked.body).toBe(200)
    await expect(
      database.db.transaction((tx) =>
        recordMessage(
          tx,
          {
            kind: 'comment',
            id: comment.id,
            threadId: thread,
            author: ben.address,
            key: key.address,
            message: comment.message,
            signature: comment.signature,
          },
          silentObserver,
        ),
      ),
    ).rejects.toMatchObject({ status: 403, code: 'key_revoked' })
    expect(
      await database.db.select().from(governanceLog).where(eq(governanceLog.messageId, comment.id)),
    ).toEqual([])
    expect(
      await database.db.select().from(discussionMessages).where(eq(discussionMessages.id, comment.id)),
    ).toEqual([])
  })
  test('behavior: the author withdraws a comment: its text hidden in the thread and its versions, its entries kept; another member → 403 not_author', async () => {
    const { key } = await authoriseKey(ada)
    const { key: bens } = await authoriseKey(ben)
    const thread = await createTopic(key, ada)
    const { id } = await postComment(
      key,
      ada,
      commentMessage(ada.address, thread, { body: 'On second thought…' }),
    )
    const withdrawal = { author: ada.address, comment: id, timestamp: nowSeconds() }
    const byBen = await signWith(bens, 'withdrawal', { ...withdrawal, author: ben.address })
    await expectRefused(
      () =>
        post(
          '/api/comments/withdraw',
          { message: byBen.message, signature: byBen.signature },
          cookies.get(ben.address),
        ),
      403,
      'not_author',
    )
    const signed = await signWith(key, 'withdrawal', withdrawal)
    const response = await post(
      '/api/comments/withdraw',
      { message: signed.message, signature: signed.signature },
      cookies.get(ada.address),
    )
    expect(response.statusCode).toBe(200)
    expect(response.json().comment).toMatchObject({ id, withdrawn: true, body: null })
    expect((await get(`/api/comments/${id}/versions`)).json().items).toEqual([
      expect.objectContaining({ versionId: id, body: null }),
    ])
    const entries = await database.db
      .select()
      .from(governanceLog)
      .where(eq(governanceLog.messageId, signed.id))
    expect(entries.map((entry) => entry.kind)).toEqual(['withdrawal'])
    // The comment's own entry stays, and so does its text in the signed message (the bundle's).
    const [stored] = await database.db.select().from(discussionMessages).where(eq(discussionMessages.id, id))
    expect(stored?.message).toMatchObject({ body: 'On second thought…' })
  })

  test('behavior: a topic names one of DISCUSSION_CATEGORIES, else 400 bad_category', async () => {
    const { key } = await authoriseKey(ada)
    const signed = await signWith(key, 'topic', {
      author: ada.address,
      category: 'Gossip',
      title: 'Not a category here',
      body: '',
      mentions: [],
      timestamp: nowSeconds(),
    })
    const message = await expectRefused(
      () =>
        post(
          '/api/discussion/topics',
          { message: signed.message, signature: signed.signature },
          cookies.get(ada.address),
        ),
      400,
      'bad_category',
    )
    expect(message).toContain('Ideas, Questions, General')
  })
})

describe('refusals: each with its status and error, nothing stored', () => {
  test('behavior: an expired key → 403 key_expired', async () => {
    const { key } = await authoriseKey(ada, { timestamp: nowSeconds() - 2 * 86_400, lifetime: 86_400 })
    const { key: live } = await authoriseKey(ada)
    const thread = await createTopic(live, ada)
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread))
    await expectRefused(() => sendComment(signed, ada), 403, 'key_expired')
  })

  test('behavior: a foreign key (Ben’s, signing as Ada) → 403 key_unknown; a key nobody authorised → 401 bad_signature', async () => {
    const { key: adas } = await authoriseKey(ada)
    const { key: bens } = await authoriseKey(ben)
    const thread = await createTopic(adas, ada)
    const foreign = await signWith(bens, 'comment', commentMessage(ada.address, thread))
    await expectRefused(() => sendComment(foreign, ada), 403, 'key_unknown')
    const nobodys = await signWith(
      privateKeyToAccount(generatePrivateKey()),
      'comment',
      commentMessage(ada.address, thread),
    )
    await expectRefused(() => sendComment(nobodys, ada), 401, 'bad_signature')
  })

  test('behavior: a forged comment (text changed after signing) → 401 bad_signature', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread, { body: 'I agree.' }))
    await expectRefused(
      () =>
        post(
          '/api/comments',
          { message: { ...signed.message, body: 'I disagree.' }, signature: signed.signature },
          cookies.get(ada.address),
        ),
      401,
      'bad_signature',
    )
  })

  test('behavior: a key signature whose last byte is no recovery bit (29) → 401 bad_signature, as the recount rules; the same with 0 → 201', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread, { body: 'Bits.' }))
    const withLastByte = (byte: string) => `${signed.signature.slice(0, 130)}${byte}` as Hex
    await expectRefused(
      () => sendComment({ message: signed.message, signature: withLastByte('1d') }, ada),
      401,
      'bad_signature',
    )
    // 27 and 28 are the recovery bits 0 and 1 written the other way: the same key signed it.
    const bit = Number.parseInt(signed.signature.slice(130), 16) - 27
    const response = await sendComment({ message: signed.message, signature: withLastByte(`0${bit}`) }, ada)
    expect(response.statusCode).toBe(201)
  })

  test('behavior: a replayed comment → 409 replayed', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const { response, signed } = await postComment(key, ada, commentMessage(ada.address, thread))
    expect(response.statusCode).toBe(201)
    await expectRefused(() => sendComment(signed, ada), 409, 'replayed')
  })

  test('behavior: a mention that is not an address → 400; a mention signed as another address → 422 mention_mismatch', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const message = commentMessage(ada.address, thread, { body: 'Thanks @ben.eth' })
    const signature = (await signWith(key, 'comment', message)).signature
    const notAddress = await expectRefused(
      () =>
        post(
          '/api/comments',
          { message: { ...message, mentions: ['ben.eth'] }, signature },
          cookies.get(ada.address),
        ),
      400,
      'bad_request',
    )
    expect(notAddress).toContain('mentions')
    const mismatch = commentMessage(ada.address, thread, {
      body: `Thanks @${cleo.address}`,
      mentions: [ben.address],
    })
    const signed = await signWith(key, 'comment', mismatch)
    await expectRefused(() => sendComment(signed, ada), 422, 'mention_mismatch')
  })

  test('behavior: a body over the limit → 400 naming the limit', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const long = commentMessage(ada.address, thread, { body: 'x'.repeat(DISCUSSION_LIMITS.bodyMaxChars + 1) })
    const signed = await signWith(key, 'comment', long)
    const message = await expectRefused(() => sendComment(signed, ada), 400, 'bad_request')
    expect(message).toContain('10000')
  })

  test('behavior: a reply past the depth limit → 422 too_deep', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    let parent = zeroHash as `0x${string}`
    for (let depth = 0; depth <= DISCUSSION_LIMITS.depthMax; depth++) {
      const { response, id } = await postComment(
        key,
        ada,
        commentMessage(ada.address, thread, { parent, body: `Depth ${depth}` }),
      )
      expect(response.json().comment?.depth).toBe(depth)
      parent = id
    }
    const signed = await signWith(
      key,
      'comment',
      commentMessage(ada.address, thread, { parent, body: 'Too deep' }),
    )
    await expectRefused(() => sendComment(signed, ada), 422, 'too_deep')
  })

  test('behavior: a comment on a locked thread → 423 thread_locked', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    // Locked as the moderation part's lock leaves it (its columns on the thread's row).
    await database.db
      .update(threads)
      .set({ lockedBy: cleo.address, lockedReason: 'cooling off', lockedAt: nowSeconds(), lockedSeq: 1 })
      .where(eq(threads.id, thread))
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread))
    const message = await expectRefused(() => sendComment(signed, ada), 423, 'thread_locked')
    expect(message).toContain('cooling off')
  })

  test('behavior: an edit by another member → 403 not_author; a stale edit → 409 not_latest; an edit of the latest → 201', async () => {
    const { key: adas } = await authoriseKey(ada)
    const { key: bens } = await authoriseKey(ben)
    const thread = await createTopic(adas, ada)
    const { id } = await postComment(adas, ada, commentMessage(ada.address, thread, { body: 'Version one' }))
    const byBen = await signWith(
      bens,
      'comment',
      commentMessage(ben.address, thread, { replaces: id, body: 'Hijacked' }),
    )
    await expectRefused(() => sendComment(byBen, ben), 403, 'not_author')
    const edit = await postComment(
      adas,
      ada,
      commentMessage(ada.address, thread, { replaces: id, body: 'Version two' }),
    )
    expect(edit.response.statusCode).toBe(201)
    expect(edit.response.json().comment).toMatchObject({
      id,
      versionId: edit.id,
      versions: 2,
      body: 'Version two',
    })
    const stale = await signWith(
      adas,
      'comment',
      commentMessage(ada.address, thread, { replaces: id, body: 'Version 2b' }),
    )
    await expectRefused(() => sendComment(stale, ada), 409, 'not_latest')
    const versions = await get(`/api/comments/${id}/versions`)
    expect(versions.json().items.map((item: { body: string }) => item.body)).toEqual([
      'Version one',
      'Version two',
    ])
  })

  test('behavior: no session → 401 not_signed_in; another member’s session → 403 not_your_message', async () => {
    const { key } = await authoriseKey(ada)
    const thread = await createTopic(key, ada)
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread))
    const body = { message: signed.message, signature: signed.signature }
    await expectRefused(() => post('/api/comments', body), 401, 'not_signed_in')
    await expectRefused(() => post('/api/comments', body, cookies.get(ben.address)), 403, 'not_your_message')
  })

  test('behavior: an account with neither voting power nor tokens → 403 may_not_post (DISCUSSION_POSTERS=members)', async () => {
    // Iris holds nothing: she may authorise a key and sign in, not post.
    const { key } = await authoriseKey(iris)
    const { key: adas } = await authoriseKey(ada)
    const thread = await createTopic(adas, ada)
    const signed = await signWith(key, 'comment', commentMessage(iris.address, thread))
    const message = await expectRefused(() => sendComment(signed, iris), 403, 'may_not_post')
    expect(message).toContain('voting power or tokens')
    const view = await get(`/api/threads/${thread}`, cookies.get(iris.address))
    expect(view.json()).toMatchObject({ mayPost: false, mayPostReason: message })
  })

  test('behavior: a key without the scope → 403 key_scope', async () => {
    const { key } = await authoriseKey(ada, { scopes: ['react'] })
    const { key: live } = await authoriseKey(ada)
    const thread = await createTopic(live, ada)
    const signed = await signWith(key, 'comment', commentMessage(ada.address, thread))
    await expectRefused(() => sendComment(signed, ada), 403, 'key_scope')
  })
})
