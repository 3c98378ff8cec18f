// Sign-In with Ethereum and sessions (ADR 007, docs/security.md). Checks run cheapest first:
// shape, policy, nonce, signature; the nonce is consumed by the statement that creates the session.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import {
  ChainUnavailableError,
  checkSiwePolicy,
  parseRfc3339,
  parseSiweMessageStrict,
  type RecoverSigner,
  type SiwePolicy,
  verifyPersonalSignature,
} from '@guildhall/core'
import { and, desc, eq, gt, isNull, lt, type SQL, sql } from 'drizzle-orm'
import type { Hex, PublicClient } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { authNonces, type Session, sessions } from '../platform/db/schema.ts'
import { TurnBatches } from '../platform/db/turn-batches.ts'
import { ApiError } from '../platform/http/errors.ts'

export type { Session }

export const NONCE_TTL_MS = 10 * 60_000
const SESSION_IDLE_MS = 7 * 24 * 60 * 60_000
const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60_000
/** last_seen / idle expiry are written at most this often per session. */
const TOUCH_INTERVAL_MS = 60_000
const USER_AGENT_MAX_LENGTH = 256

export interface SignInDeps {
  db: Db
  now: () => Date
  /** The policy of the deployment; `now` and `nonce` are filled in per request. */
  policy: Omit<SiwePolicy, 'now' | 'nonce'>
  /** A client for each allowed chain, used only for contract accounts. */
  clientFor: (chainId: number) => PublicClient | undefined
  /** ECDSA recovery on the app's worker threads (ADR 063); a failed worker is a 503 signature_check_failed. */
  recover: RecoverSigner
}

/** An opaque random token (32 bytes) for a cookie. */
export const newToken = (): string => randomBytes(32).toString('base64url')
/** What the database stores instead of a token. */
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/**
 * Sign-in's statements of every nonce, verify and signed-in request (and of a verify the policy refuses):
 * built once per database and prepared, so each is planned once per connection rather than built and planned
 * at every request. The nonce checks of a turn's verifies go in one statement (ADR 087), and so do their
 * sessions (ADR 089): at a closing hour's sign-ins, a statement a verify was a quarter of the API's thread.
 */
function buildStatements(db: Db) {
  const now = sql`${sql.placeholder('now')}::timestamptz`
  const nonceMatches = and(
    eq(authNonces.nonce, sql.placeholder('nonce')),
    eq(authNonces.preauthHash, sql.placeholder('preauthHash')),
  )
  // The expired ones go in the same statement that stores the new one: one round trip.
  const expired = db
    .$with('expired')
    .as(db.delete(authNonces).where(lt(authNonces.expiresAt, now)).returning({ nonce: authNonces.nonce }))
  const issueNonce = db
    .with(expired)
    .insert(authNonces)
    .values({
      nonce: sql.placeholder('nonce'),
      preauthHash: sql.placeholder('preauthHash'),
      createdAt: now,
      expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
    })
    .prepare('sign_in_issue_nonce')
  // The nonces a turn's verifies present, each looked up in one statement (`issuedNonces` below): a row per
  // lookup in its order, the nonce's times null when it was not issued to that pre-auth cookie.
  const issuedNonces = db
    .select({
      consumedAt: sql`n.consumed_at`.mapWith(authNonces.consumedAt),
      expiresAt: sql`n.expires_at`.mapWith(authNonces.expiresAt),
    })
    .from(
      sql`jsonb_to_recordset(${sql.placeholder('lookups')}::jsonb) as x(i integer, nonce text, preauth_hash text)
        left join ${authNonces} n on n.nonce = x.nonce and n.preauth_hash = x.preauth_hash`,
    )
    .orderBy(sql`x.i`)
    .prepare('sign_in_issued_nonces')
  const issuedNonce = new TurnBatches<
    { nonce: string; preauthHash: string },
    { consumedAt: Date | null; expiresAt: Date | null }
  >((lookups) =>
    issuedNonces.execute({
      lookups: JSON.stringify(
        lookups.map(({ nonce, preauthHash }, i) => ({ i, nonce, preauth_hash: preauthHash })),
      ),
    }),
  )
  const spendNonce = db
    .update(authNonces)
    .set({ consumedAt: now })
    .where(nonceMatches)
    .prepare('sign_in_spend_nonce')
  const liveSession = db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), isLive(now)))
    .prepare('sign_in_live_session')
  const createSession = new TurnBatches<SessionToCreate, boolean>((verifies) => createSessions(db, verifies))
  return { issueNonce, issuedNonce, spendNonce, createSession, liveSession }
}

/** A verify that passed every check, its session to be stored if its nonce is still unspent. */
type SessionToCreate = { nonce: string; preauthHash: string; now: Date; session: Session }

/**
 * The sessions of a turn's verifies in one statement (ADR 089), each stored only if its verify consumed the
 * nonce: unspent and unexpired at the verify's time. Of verifies in the batch with the same nonce, the first
 * alone may consume it; concurrent statements (other instances) wait for the nonce's row, then find it used.
 * Answers, in the verifies' order, whether each one's session was stored. A deadlock between two instances'
 * batches (each holding a nonce the other needs) ends one statement whole, which then runs once more, as any
 * statement the database ends does (retry-once.ts, ADR 091).
 */
export async function createSessions(db: Db, verifies: readonly SessionToCreate[]): Promise<boolean[]> {
  const rows = verifies.map(({ nonce, preauthHash, now, session }, i) => ({
    i,
    nonce,
    preauth_hash: preauthHash,
    now: now.toISOString(),
    id: session.id,
    token_hash: session.tokenHash,
    address: session.address,
    chain_id: session.chainId,
    idle_expires_at: session.idleExpiresAt.toISOString(),
    absolute_expires_at: session.absoluteExpiresAt.toISOString(),
    user_agent: session.userAgent,
  }))
  const statement = sql`with picked as (
      select distinct on (v.nonce, v.preauth_hash) v.*
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(i integer, nonce text, preauth_hash text,
        now timestamptz, id uuid, token_hash text, address text, chain_id integer, idle_expires_at timestamptz,
        absolute_expires_at timestamptz, user_agent text)
      order by v.nonce, v.preauth_hash, v.i),
    consumed as (
      update ${authNonces} n set consumed_at = p.now from picked p
      where n.nonce = p.nonce and n.preauth_hash = p.preauth_hash and n.consumed_at is null and n.expires_at > p.now
      returning n.nonce, n.preauth_hash)
    insert into ${sessions} (id, token_hash, address, chain_id, created_at, last_seen_at, idle_expires_at,
      absolute_expires_at, revoked_at, user_agent)
    select p.id, p.token_hash, p.address, p.chain_id, p.now, p.now, p.idle_expires_at, p.absolute_expires_at,
      null, p.user_agent
    from picked p join consumed c on c.nonce = p.nonce and c.preauth_hash = p.preauth_hash
    returning id`
  const created = await db.execute<{ id: string }>(statement)
  const stored = new Set(created.rows.map((row) => row.id))
  return verifies.map(({ session }) => stored.has(session.id))
}

const statementsByDb = new WeakMap<Db, ReturnType<typeof buildStatements>>()
function statements(db: Db): ReturnType<typeof buildStatements> {
  let built = statementsByDb.get(db)
  if (!built) {
    built = buildStatements(db)
    statementsByDb.set(db, built)
  }
  return built
}

/** Issues a single-use nonce (128 bits) bound to the pre-auth cookie; drops expired ones on the way. */
export async function issueNonce(deps: SignInDeps, preauthToken: string): Promise<string> {
  const now = deps.now()
  const nonce = randomBytes(16).toString('hex')
  await statements(deps.db).issueNonce.execute({
    nonce,
    preauthHash: hashToken(preauthToken),
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + NONCE_TTL_MS).toISOString(),
  })
  return nonce
}

/** The message's nonce has expired or was used (checked before the signature, and again when consumed). */
const nonceSpent = () =>
  new ApiError(401, 'invalid_nonce', 'This sign-in message has expired or was already used. Sign in again.')

/** Verifies a signed SIWE message and, if everything holds, creates a session. */
export async function verifySignIn(
  deps: SignInDeps,
  input: { message: string; signature: Hex; preauthToken: string | undefined; userAgent: string | undefined },
): Promise<{ token: string; session: Session }> {
  const parsed = parseSiweMessageStrict(input.message)
  if (!parsed.ok)
    throw new ApiError(400, 'malformed_message', `The sign-in message is malformed: ${parsed.reason}`)
  const { fields } = parsed
  const now = deps.now()
  if (!input.preauthToken)
    throw new ApiError(401, 'invalid_nonce', 'Ask for a new sign-in message: this one was not issued to you.')
  const preauthHash = hashToken(input.preauthToken)
  const statement = statements(deps.db)

  const policy = checkSiwePolicy(fields, { ...deps.policy, now })
  if (!policy.ok) {
    // A message the signer got wrong must not be replayable with its nonce; a failure that was not the
    // signer's (e.g. clock skew) keeps the nonce usable for a retry.
    if (!policy.nonceStillUsable)
      await statement.spendNonce.execute({ nonce: fields.nonce, preauthHash, now: now.toISOString() })
    throw new ApiError(401, policy.code, policy.message)
  }

  const issued = await statement.issuedNonce.add({ nonce: fields.nonce, preauthHash })
  if (issued.expiresAt === null || issued.consumedAt !== null || issued.expiresAt <= now) {
    throw nonceSpent()
  }

  const client = deps.clientFor(fields.chainId)
  let valid: boolean
  try {
    if (!client) throw new ChainUnavailableError(`No client for chain ${fields.chainId}`)
    valid = await verifyPersonalSignature({
      address: fields.address,
      message: input.message,
      signature: input.signature,
      client,
      recover: deps.recover,
    })
  } catch (error) {
    if (error instanceof ChainUnavailableError) {
      throw ApiError.contractCheckUnavailable()
    }
    throw error
  }
  if (!valid)
    throw new ApiError(401, 'bad_signature', 'The signature does not match the address in the message.')

  const token = newToken()
  // The session never outlives what the member signed: its Expiration Time, when given, caps it.
  const signedExpiry = fields.expirationTime === undefined ? undefined : parseRfc3339(fields.expirationTime)
  const absoluteExpiry = Math.min(
    now.getTime() + SESSION_ABSOLUTE_MS,
    signedExpiry ?? Number.POSITIVE_INFINITY,
  )
  const session: Session = {
    id: randomUUID(),
    tokenHash: hashToken(token),
    address: fields.address,
    chainId: fields.chainId,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, absoluteExpiry)),
    absoluteExpiresAt: new Date(absoluteExpiry),
    revokedAt: null,
    userAgent: input.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
  }
  const created = await statement.createSession.add({ nonce: fields.nonce, preauthHash, now, session })
  if (!created) throw nonceSpent()
  return { token, session }
}

/** Not revoked, and neither its idle nor its absolute expiry has passed. */
const isLive = (now: Date | SQL) =>
  and(isNull(sessions.revokedAt), gt(sessions.idleExpiresAt, now), gt(sessions.absoluteExpiresAt, now))

/** When a session ends: the earlier of its idle and absolute expiry. */
export const sessionExpiresAt = (session: Session): Date =>
  session.idleExpiresAt < session.absoluteExpiresAt ? session.idleExpiresAt : session.absoluteExpiresAt

/** The live session of a token, sliding its idle expiry; undefined when unknown, revoked or expired. */
export async function findSession(
  deps: Pick<SignInDeps, 'db' | 'now'>,
  token: string | undefined,
): Promise<Session | undefined> {
  if (!token) return undefined
  const now = deps.now()
  const [session] = await statements(deps.db).liveSession.execute({
    tokenHash: hashToken(token),
    now: now.toISOString(),
  })
  if (!session) return undefined
  if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_INTERVAL_MS) return session
  const [touched] = await deps.db
    .update(sessions)
    .set({ lastSeenAt: now, idleExpiresAt: new Date(now.getTime() + SESSION_IDLE_MS) })
    .where(eq(sessions.id, session.id))
    .returning()
  return touched ?? session
}

/** Revokes the session of a token; a no-op for unknown or already revoked tokens. */
export async function revokeToken(
  deps: Pick<SignInDeps, 'db' | 'now'>,
  token: string | undefined,
): Promise<void> {
  if (!token) return
  await deps.db
    .update(sessions)
    .set({ revokedAt: deps.now() })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
}

/** The live sessions of an address, newest first. */
export async function listSessions(
  deps: Pick<SignInDeps, 'db' | 'now'>,
  address: string,
): Promise<Session[]> {
  const now = deps.now()
  return deps.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.address, address), isLive(now)))
    .orderBy(desc(sessions.createdAt))
}

/** Revokes one session of `address` (by id) or all of them; returns how many were revoked. */
export async function revokeSessions(
  deps: Pick<SignInDeps, 'db' | 'now'>,
  address: string,
  id?: string,
): Promise<number> {
  const revoked = await deps.db
    .update(sessions)
    .set({ revokedAt: deps.now() })
    .where(
      and(eq(sessions.address, address), isNull(sessions.revokedAt), id ? eq(sessions.id, id) : sql`true`),
    )
    .returning({ id: sessions.id })
  return revoked.length
}
