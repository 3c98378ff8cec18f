// Every key-signed discussion message (ADR 052, 053) passes the same checks before its own: the session is
// its author's, it is not a replay, its timestamp is in the window, and the key that signed it is one its
// author authorised, unrevoked, unexpired and with the scope its kind needs. Then it is stored with its log
// entry (`recordMessage`) inside the caller's transaction.
import {
  DISCUSSION_KIND_SCOPES,
  type DiscussionMessageKind,
  type DiscussionMessages,
  discussionAuthor,
  discussionMessageId,
  isKeySignature,
  recoverSigner,
  timestampProblem,
  timestampProblemMessage,
} from '@guildhall/core'
import { eq, sql } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { type GovernanceDeps, seconds } from '../governance/deps.ts'
import { appendLog } from '../governance/log.ts'
import type { Tx } from '../platform/db/client.ts'
import { discussionKeys, discussionMessages, threads } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { Observer } from '../platform/observer.ts'
import type { DiscussionDeps } from './deps.ts'

/** The session's address, or a 401. */
export function requireSignedIn(signedIn: Address | undefined): Address {
  if (!signedIn) throw new ApiError(401, 'not_signed_in', 'Sign in to take part in the discussion.')
  return signedIn
}

/** A write needs a session, and only its own address may author what it sends. */
export function requireAuthor(signedIn: Address | undefined, author: Address): void {
  if (requireSignedIn(signedIn) !== author) {
    throw new ApiError(
      403,
      'not_your_message',
      `This message is from ${author}, but you are signed in as ${signedIn}.`,
    )
  }
}

export const replayed = () =>
  new ApiError(409, 'replayed', 'This exact message was already accepted; sign a new one to post again.')

const keyRevoked = () =>
  new ApiError(403, 'key_revoked', 'The key that signed this was revoked. Authorise a new one.')

/** A 422 unless `timestamp` is within the window every signed message's is (core's `timestampProblem`). */
export function checkTimestamp(deps: DiscussionDeps, timestamp: number): void {
  const clock = timestampProblem(timestamp, seconds(deps.governance.now()))
  if (clock) throw new ApiError(422, 'bad_timestamp', timestampProblemMessage('message', clock))
}

/**
 * The address whose key signed the digest `id` (core's discussionSigner, the recount's rule), recovered on the
 * signature workers (ADR 063), or null when `signature` is not a key's signature.
 */
export async function keySigner(
  governance: GovernanceDeps,
  id: Hex,
  signature: Hex,
): Promise<Address | null> {
  if (!isKeySignature(signature)) return null
  return (governance.recover ?? recoverSigner)(id, signature)
}

/**
 * The checks every key-signed message passes, cheapest first; answers its id and the key that signed it.
 * Moderation's messages go through here too (scope `moderate`).
 */
export async function checkKeySigned<K extends DiscussionMessageKind>(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  kind: K,
  message: DiscussionMessages[K],
  signature: Hex,
): Promise<{ id: Hex; key: Address; author: Address }> {
  const author = discussionAuthor(kind, message)
  requireAuthor(signedIn, author)
  const { domain, database } = deps.governance
  const id = discussionMessageId(domain, kind, message)
  const [stored] = await database.db
    .select({ id: discussionMessages.id })
    .from(discussionMessages)
    .where(eq(discussionMessages.id, id))
  if (stored) throw replayed()
  checkTimestamp(deps, (message as { timestamp: number }).timestamp)
  const signer = await keySigner(deps.governance, id, signature)
  const [key] = signer
    ? await database.db.select().from(discussionKeys).where(eq(discussionKeys.key, signer))
    : []
  if (!signer || !key) {
    throw new ApiError(
      401,
      'bad_signature',
      'The signature does not come from a discussion key anyone authorised for this message.',
    )
  }
  if (key.member !== author) {
    throw new ApiError(403, 'key_unknown', `The key that signed this is not one ${author} authorised.`)
  }
  if (key.revokedSeq !== null) {
    throw keyRevoked()
  }
  if (key.expires <= seconds(deps.governance.now())) {
    throw new ApiError(403, 'key_expired', 'The key that signed this has expired. Authorise a new one.')
  }
  const scope = DISCUSSION_KIND_SCOPES[kind]
  if (scope && !key.scopes.includes(scope)) {
    throw new ApiError(
      403,
      'key_scope',
      `The key that signed this may not sign a ${kind}: it lacks "${scope}".`,
    )
  }
  return { id, key: signer, author }
}

/**
 * Stores a key-signed message and its log entry inside `tx` and marks its thread's latest activity. A
 * replay that raced this one stored it first: a 409; a revocation of its key that committed meanwhile: a 403;
 * either way the transaction rolls back.
 */
export async function recordMessage(
  tx: Tx,
  entry: {
    kind: DiscussionMessageKind
    id: Hex
    threadId: Hex | null
    author: Address
    key: Address
    message: object
    signature: Hex
  },
  observer: Observer,
): Promise<number> {
  const logged = await appendLog(
    tx,
    {
      kind: entry.kind,
      messageId: entry.id,
      proposalId: null,
      signature: entry.signature,
      ...(entry.threadId ? { threadId: entry.threadId } : {}),
    },
    observer,
  )
  // Under the log's lock, which a revocation holds until it commits: a revocation committed since
  // `checkKeySigned` read the key is seen here, so no message of a key is logged after its revocation.
  const [key] = await tx
    .select({ revokedSeq: discussionKeys.revokedSeq })
    .from(discussionKeys)
    .where(eq(discussionKeys.key, entry.key))
  if (key?.revokedSeq != null) throw keyRevoked()
  const inserted = await tx
    .insert(discussionMessages)
    .values({
      id: entry.id,
      kind: entry.kind,
      threadId: entry.threadId,
      author: entry.author,
      key: entry.key,
      message: entry.message as Record<string, unknown>,
      signature: entry.signature,
      logSeq: logged.seq,
    })
    .onConflictDoNothing()
    .returning({ id: discussionMessages.id })
  if (inserted.length === 0) throw replayed()
  if (entry.threadId) {
    await tx
      .update(threads)
      .set({ lastActivitySeq: sql`greatest(${threads.lastActivitySeq}, ${logged.seq})` })
      .where(eq(threads.id, entry.threadId))
  }
  return logged.seq
}

/** The width of one log seq in a comment's path: zero-padded, so text order is numeric order. */
const PATH_SEGMENT_DIGITS = 12
export const pathSegment = (seq: number) => String(seq).padStart(PATH_SEGMENT_DIGITS, '0')
/** A path: segments of PATH_SEGMENT_DIGITS digits joined by '.', at most depthMax + 1 of them. */
export const PATH_PATTERN = /^\d{12}(\.\d{12}){0,7}$/
