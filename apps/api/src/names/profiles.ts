// Names and avatars for addresses (GET /api/names), answered from the table of resolved profiles: never a
// lookup on the reader's time. A member's address (one the members directory lists: holding tokens, voting
// power or delegators, or having voted) that the table lacks, or whose answer has expired, is queued in the
// table itself (`requested_at`); the leader's refresher (names/name-refresher.ts) resolves the queue in
// batches. An expired answer is still given meanwhile: a name changes rarely, and a stale one for a minute
// beats none. Any other address (an account that only signed in, or holds nothing) is answered without a
// name and queues nothing, so readers and fresh keys cannot grow the table or the leader's RPC work beyond
// the DAO's members (ADRs 033, 037).
import type { NameAnswer } from '@guildhall/core'
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { Address } from 'viem'
import type { Db } from '../platform/db/client.ts'
import { memberStats, nameProfiles } from '../platform/db/schema.ts'
import { type AvatarGateways, avatarRecordProblem, avatarUrl } from './avatar-url.ts'

export type NameProfilesOptions = {
  db: Db
  now: () => Date
  /** The configured gateways; null when names are off (no ENS_RPC_URL): every answer is empty, quietly. */
  gateways: AvatarGateways | null
  /** Called after addresses were queued (wakes this instance's refresher when it leads). */
  onQueued?: () => void
}

export class NameProfiles {
  readonly #options: NameProfilesOptions

  constructor(options: NameProfilesOptions) {
    this.#options = options
  }

  /**
   * One answer per address (distinct, in order); members' missing and expired ones are queued for a
   * lookup. An address that is not a member has no name here unless one is still stored for it.
   */
  async lookup(addresses: readonly Address[]): Promise<NameAnswer[]> {
    const distinct = [...new Set(addresses)]
    const { gateways, db } = this.#options
    if (gateways === null) return distinct.map((address) => empty(address, false))
    const now = this.#options.now()
    const [rows, memberRows] = await Promise.all([
      db
        .select({
          address: nameProfiles.address,
          name: nameProfiles.name,
          avatarRecord: nameProfiles.avatarRecord,
          avatarUrl: nameProfiles.avatarUrl,
          resolvedAt: nameProfiles.resolvedAt,
          expiresAt: nameProfiles.expiresAt,
          requestedAt: nameProfiles.requestedAt,
        })
        .from(nameProfiles)
        .where(inArray(nameProfiles.address, distinct)),
      db
        .select({ address: memberStats.address })
        .from(memberStats)
        .where(and(inArray(memberStats.address, distinct), sql`${memberStats.listed}`)),
    ])
    const members = new Set(memberRows.map((row) => row.address))
    const found = new Map(rows.map((row) => [row.address, row]))
    const missing = distinct.filter((address) => !found.has(address) && members.has(address))
    const expired = rows.filter(
      (row) => row.requestedAt === null && row.expiresAt <= now && members.has(row.address),
    )
    if (missing.length > 0) {
      await db
        .insert(nameProfiles)
        .values(missing.map((address) => ({ address, expiresAt: now, requestedAt: now })))
        .onConflictDoNothing()
    }
    if (expired.length > 0) {
      await db
        .update(nameProfiles)
        .set({ requestedAt: now })
        .where(
          and(
            inArray(
              nameProfiles.address,
              expired.map((row) => row.address),
            ),
            isNull(nameProfiles.requestedAt),
            lte(nameProfiles.expiresAt, now),
          ),
        )
    }
    if (missing.length > 0 || expired.length > 0) this.#options.onQueued?.()
    return distinct.map((address) => {
      const row = found.get(address)
      if (!row || row.resolvedAt === null) return empty(address, members.has(address))
      // The stored URL was checked at the gateway; it stands while the settings' gateways still derive it.
      const derived = avatarUrl(row.avatarRecord, gateways)
      return {
        address,
        name: row.name,
        avatarUrl: derived === row.avatarUrl ? derived : null,
        pending: false,
      }
    })
  }

  /**
   * Why the member's avatar record gives them no image, in the spec's (viem's) words; null when it gives one,
   * when there is no record, or before the name is resolved. `answer` is what `lookup` gave for the member.
   */
  async avatarProblem(answer: NameAnswer): Promise<string | null> {
    if (answer.pending || answer.name === null || answer.avatarUrl !== null) return null
    const [row] = await this.#options.db
      .select({ record: nameProfiles.avatarRecord })
      .from(nameProfiles)
      .where(eq(nameProfiles.address, answer.address))
    return row?.record ? avatarRecordProblem(row.record) : null
  }
}

function empty(address: Address, pending: boolean): NameAnswer {
  return { address, name: null, avatarUrl: null, pending }
}
