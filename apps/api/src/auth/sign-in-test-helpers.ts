// What the sign-in tests hand `createSessions`: a verify that passed every check, with a made-up session.
import { randomBytes, randomUUID } from 'node:crypto'
import { LOCAL_CHAIN_ID } from '@guildhall/core'
import type { createSessions } from './sign-in.ts'

type SessionToCreate = Parameters<typeof createSessions>[1][number]

/** A verify of `nonce` presented with `preauthHash` at `now`, for a new address, its session a minute long. */
export const verifyToStore = (nonce: string, preauthHash: string, now: Date): SessionToCreate => ({
  nonce,
  preauthHash,
  now,
  session: {
    id: randomUUID(),
    tokenHash: randomUUID(),
    address: `0x${randomBytes(20).toString('hex')}`,
    chainId: LOCAL_CHAIN_ID,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(now.getTime() + 60_000),
    absoluteExpiresAt: new Date(now.getTime() + 60_000),
    revokedAt: null,
    userAgent: null,
  },
})
