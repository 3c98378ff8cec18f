// Discussion keys (ADR 052): a member's wallet authorises a browser key once (`DiscussionKey`; a Safe through
// the contract-signature check, as for votes); the member's wallet or the key itself revokes it. Each is a
// log entry, stored with it in one transaction.
import {
  type DiscussionKeyJson,
  type DiscussionKeyMessage,
  discussionKeyId,
  type KeyRevocationMessage,
  keyRevocationId,
} from '@guildhall/core'
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { Address, Hex } from 'viem'
import { checkSignature } from '../governance/deps.ts'
import { appendLog } from '../governance/log.ts'
import { discussionKeys, discussionMessages } from '../platform/db/schema.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { DiscussionDeps } from './deps.ts'
import { checkTimestamp, keySigner, recordMessage, replayed, requireAuthor } from './signed.ts'

type KeyRow = typeof discussionKeys.$inferSelect

const keyJson = (row: KeyRow): DiscussionKeyJson => ({
  key: row.key as Address,
  member: row.member as Address,
  scopes: row.scopes as DiscussionKeyJson['scopes'],
  expires: row.expires,
  createdAt: row.timestamp,
  revokedAt: row.revokedAt,
  logSeq: row.logSeq,
})

/** POST /api/discussion/keys: the member's wallet signature of the key (EOA or contract). */
export async function authoriseKey(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: DiscussionKeyMessage; signature: Hex },
): Promise<DiscussionKeyJson> {
  requireAuthor(signedIn, message.member)
  const { governance } = deps
  const id = discussionKeyId(governance.domain, message)
  const { db } = governance.database
  const [stored] = await db.select().from(discussionKeys).where(eq(discussionKeys.key, message.key))
  if (stored?.id === id) throw replayed()
  if (stored) {
    throw new ApiError(409, 'key_exists', 'This key is already authorised; generate a new key to authorise.')
  }
  checkTimestamp(deps, message.timestamp)
  await checkSignature(governance, message.member, id, signature)
  return db.transaction(async (tx) => {
    const logged = await appendLog(
      tx,
      { kind: 'discussion-key', messageId: id, proposalId: null, signature },
      governance.observer,
    )
    const [row] = await tx
      .insert(discussionKeys)
      .values({
        key: message.key,
        member: message.member,
        scopes: [...message.scopes],
        expires: message.expires,
        timestamp: message.timestamp,
        id,
        message,
        signature,
        logSeq: logged.seq,
      })
      .onConflictDoNothing()
      .returning()
    // Another authorisation of the same key raced this one and won.
    if (!row)
      throw new ApiError(
        409,
        'key_exists',
        'This key is already authorised; generate a new key to authorise.',
      )
    return keyJson(row)
  })
}

/** POST /api/discussion/keys/revoke: signed by the key itself, or by the member's wallet. */
export async function revokeKey(
  deps: DiscussionDeps,
  signedIn: Address | undefined,
  { message, signature }: { message: KeyRevocationMessage; signature: Hex },
): Promise<DiscussionKeyJson> {
  requireAuthor(signedIn, message.member)
  const { governance } = deps
  const { db } = governance.database
  const id = keyRevocationId(governance.domain, message)
  const [replay] = await db
    .select({ id: discussionMessages.id })
    .from(discussionMessages)
    .where(eq(discussionMessages.id, id))
  if (replay) throw replayed()
  const [key] = await db.select().from(discussionKeys).where(eq(discussionKeys.key, message.key))
  if (!key || key.member !== message.member) {
    throw new ApiError(404, 'unknown_key', `${message.member} has not authorised the key ${message.key}.`)
  }
  if (key.revokedSeq !== null) {
    throw new ApiError(409, 'already_revoked', 'This key is already revoked.')
  }
  checkTimestamp(deps, message.timestamp)
  const signer = await keySigner(governance, id, signature)
  const byKey = signer === message.key
  // Else the member's wallet signed it: checked with the signer just recovered, not recovered twice.
  if (!byKey) await checkSignature(governance, message.member, id, signature, async () => signer)
  return db.transaction(async (tx) => {
    const seq = await recordMessage(
      tx,
      {
        kind: 'key-revocation',
        id,
        threadId: null,
        author: message.member,
        key: byKey ? message.key : message.member,
        message,
        signature,
      },
      deps.governance.observer,
    )
    const [row] = await tx
      .update(discussionKeys)
      .set({ revokedSeq: seq, revokedAt: message.timestamp })
      .where(and(eq(discussionKeys.key, message.key), isNull(discussionKeys.revokedSeq)))
      .returning()
    // Another revocation of the key raced this one and won: this one's entry rolls back.
    if (!row) throw new ApiError(409, 'already_revoked', 'This key is already revoked.')
    return keyJson(row)
  })
}

/** GET /api/discussion/keys: the signed-in member's keys, newest first. */
export async function listKeys(deps: DiscussionDeps, member: Address): Promise<DiscussionKeyJson[]> {
  const rows = await deps.governance.database.db
    .select()
    .from(discussionKeys)
    .where(eq(discussionKeys.member, member))
    .orderBy(desc(discussionKeys.timestamp))
  return rows.map(keyJson)
}
