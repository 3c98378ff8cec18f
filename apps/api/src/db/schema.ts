// The database schema (ADR 007). One pg-core schema for both backends (PGlite and PostgreSQL); the
// migrations in apps/api/drizzle/ are generated from this file (`npm run db:generate`) and committed.
import { sql } from 'drizzle-orm'
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** Sign-in nonces: bound to the hash of the pre-auth cookie, single use, short-lived. */
export const authNonces = pgTable(
  'auth_nonces',
  {
    nonce: text('nonce').primaryKey(),
    preauthHash: text('preauth_hash').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    consumedAt: timestamptz('consumed_at'),
  },
  (table) => [index('auth_nonces_expires_at_idx').on(table.expiresAt)],
)

/** Server sessions: the cookie holds a random token, only its SHA-256 is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    tokenHash: text('token_hash').notNull().unique('sessions_token_hash_unique'),
    /** EIP-55 checksummed address, as verified at sign-in. */
    address: text('address').notNull(),
    chainId: integer('chain_id').notNull(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: timestamptz('idle_expires_at').notNull(),
    absoluteExpiresAt: timestamptz('absolute_expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** Capped in the application before insert. */
    userAgent: text('user_agent'),
  },
  (table) => [index('sessions_address_idx').on(table.address)],
)

export const schema = { authNonces, sessions }
export type Schema = typeof schema
export type AuthNonce = typeof authNonces.$inferSelect
export type NewAuthNonce = typeof authNonces.$inferInsert
export type Session = typeof sessions.$inferSelect
export type NewSession = typeof sessions.$inferInsert
