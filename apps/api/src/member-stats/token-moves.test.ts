// Counting eligible members in chunks (ADR 033) on a made-up index, PGlite or PostgreSQL (under
// scripts/with-postgres.sh): the result equals what the vote checkpoints say and the recount, however the
// count is cut into chunks, stopped, resumed or rewound under, and other writes go between its chunks.
import type { ProposalMessage } from '@guildhall/core'
import { eq, sql } from 'drizzle-orm'
import { type Address, getAddress, type Hex, keccak256, numberToHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Tx } from '../platform/db/client.ts'
import {
  memberEligibilityCounted,
  memberStats,
  proposals,
  tokenVoteCheckpoints,
} from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'
import { countEligibleMembers, rebuildMemberStats } from './token-moves.ts'
import { checkMemberStats } from './vote-moves.ts'

vi.setConfig({ testTimeout: 30_000 })
const DELEGATES = 40
const HEAD = 20
const SNAPSHOTS = [5, 12, 20]
const unlocked = async (_tx: Tx) => true

const address = (n: number): Address => getAddress(keccak256(numberToHex(n)).slice(0, 42) as Hex)
/** Each delegate's votes changes: a few blocks each, some back to zero, one that never had votes. */
const checkpoints = Array.from({ length: DELEGATES }, (_, n) =>
  [1, 2 + (n % 3), 6 + (n % 4), 13 + (n % 6)].map((block, k) => ({
    delegate: address(n),
    block,
    votes: n === 0 ? 0n : BigInt(((n * 7 + k * 13) % 5) * 1_000),
    blockTime: 1_700_000_000 + block * 12,
  })),
).flat()

/** Per delegate, how many of the snapshots up to `block` it had votes at: from the checkpoints alone. */
function expectedEligible(block: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (const snapshot of SNAPSHOTS.filter((s) => s <= block)) {
    for (let n = 0; n < DELEGATES; n++) {
      const latest = checkpoints
        .filter((c) => c.delegate === address(n) && c.block <= snapshot)
        .sort((a, b) => b.block - a.block)[0]
      if (latest && latest.votes > 0n) counts.set(address(n), (counts.get(address(n)) ?? 0) + 1)
    }
  }
  return counts
}

let database: TestDatabase

async function storedEligible(): Promise<Map<string, number>> {
  const rows = await database.db
    .select({ address: memberStats.address, eligible: memberStats.eligibleProposals })
    .from(memberStats)
  return new Map(rows.filter((row) => row.eligible > 0).map((row) => [row.address, row.eligible]))
}

async function expectRecounted() {
  expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
}

beforeEach(async () => {
  database = await testDatabase()
  await database.db.insert(tokenVoteCheckpoints).values(checkpoints)
  // A member row per delegate, from the index, before any proposal is counted.
  await database.db.transaction((tx) => rebuildMemberStats(tx, undefined))
  await database.db.insert(proposals).values(
    SNAPSHOTS.map((snapshot) => ({
      id: keccak256(numberToHex(snapshot)),
      author: address(1),
      start: 0,
      end: 1,
      snapshot,
      message: {} as ProposalMessage,
      signature: '0x',
    })),
  )
})

afterEach(async () => {
  await database?.close()
})

describe('counting eligible members in chunks', () => {
  test('property: for chunk sizes from a few members to more than all of them, the count equals the checkpoints and the recount', async () => {
    for (const chunk of [3, 7, DELEGATES, DELEGATES + 1]) {
      await database.db.transaction((tx) => rebuildMemberStats(tx, undefined))
      const chunks = await countEligibleMembers(database.db, HEAD, { lock: unlocked, chunk })
      expect(chunks, `chunk ${chunk}`).toBe(SNAPSHOTS.length * Math.ceil((DELEGATES + 1) / chunk))
      expect(await storedEligible(), `chunk ${chunk}`).toEqual(expectedEligible(HEAD))
      await expectRecounted()
      expect(await database.db.select().from(memberEligibilityCounted)).toHaveLength(SNAPSHOTS.length)
      expect(await countEligibleMembers(database.db, HEAD, { lock: unlocked, chunk })).toBe(0)
    }
  })

  test('behavior: a count stopped after some chunks is half done, equal to the recount meanwhile, and a second count goes on from its mark without counting anyone twice', async () => {
    for (const stopAfter of [1, 5, 6, 13]) {
      await database.db.transaction((tx) => rebuildMemberStats(tx, undefined))
      let chunks = 0
      const first = await countEligibleMembers(database.db, HEAD, {
        lock: unlocked,
        chunk: 7,
        stopped: () => chunks++ >= stopAfter,
      })
      expect(first).toBe(stopAfter)
      // Six chunks a proposal: those it got through are done, the one it was in is half counted.
      const marks = await database.db.select().from(memberEligibilityCounted)
      expect(marks.filter((mark) => mark.done).length, `after ${stopAfter}`).toBe(Math.floor(stopAfter / 6))
      expect(marks.filter((mark) => !mark.done && mark.countedThrough !== null).length).toBe(
        stopAfter % 6 === 0 ? 0 : 1,
      )
      await expectRecounted()
      // The next leader (a new count, no memory of the first) resumes.
      const rest = await countEligibleMembers(database.db, HEAD, { lock: unlocked, chunk: 7 })
      expect(first + rest).toBe(SNAPSHOTS.length * 6)
      expect(await storedEligible(), `after ${stopAfter}`).toEqual(expectedEligible(HEAD))
      await expectRecounted()
    }
  })

  test('behavior: a count whose lock is refused writes nothing and leaves the proposals to the next count', async () => {
    expect(await countEligibleMembers(database.db, HEAD, { lock: async () => false, chunk: 7 })).toBe(0)
    expect(await database.db.select().from(memberEligibilityCounted)).toEqual([])
    expect(await storedEligible()).toEqual(new Map())
  })

  test('behavior: a rewind below one snapshot in the middle of a count uncounts that proposal, keeps the half-counted one, and the count then ends equal to the recount', async () => {
    let chunks = 0
    // Stopped in the middle of the second proposal (snapshot 12): the first is done, the third not begun.
    await countEligibleMembers(database.db, HEAD, { lock: unlocked, chunk: 7, stopped: () => chunks++ >= 9 })
    const marks = await database.db.select().from(memberEligibilityCounted)
    expect(marks.map((mark) => [mark.snapshot, mark.done]).sort()).toEqual([
      [12, false],
      [20, false],
      [5, true],
    ])
    // The chain forgot blocks after 12: the index drops them and rebuilds every row (as token-index.ts does).
    await database.db.transaction(async (tx) => {
      await tx.delete(tokenVoteCheckpoints).where(sql`${tokenVoteCheckpoints.block} > 12`)
      await rebuildMemberStats(tx, 12)
    })
    await expectRecounted()
    expect(
      (await database.db.select().from(memberEligibilityCounted)).map((mark) => mark.snapshot).sort(),
    ).toEqual([12, 5])
    await countEligibleMembers(database.db, 12, { lock: unlocked, chunk: 7 })
    expect(await storedEligible()).toEqual(expectedEligible(12))
    await expectRecounted()
  })

  test('behavior: a member row written while the count runs commits before the count is done (the count is many short transactions, not one)', async () => {
    const counting = countEligibleMembers(database.db, HEAD, { lock: unlocked, chunk: 2 })
    // Wait until the count has begun: a proposal half counted.
    let underWay = false
    for (let tries = 0; tries < 1_000 && !underWay; tries++) {
      const marks = await database.db.select().from(memberEligibilityCounted)
      underWay = marks.some((mark) => !mark.done && mark.countedThrough !== null)
    }
    expect(underWay).toBe(true)
    // What a vote does to its voter's row (member-stats/vote-moves.ts recordVotesStatement), last in address order.
    const last = [...checkpoints.map((c) => c.delegate)].sort().at(-1) as Address
    await database.db
      .update(memberStats)
      .set({ votesCast: sql`${memberStats.votesCast}` })
      .where(eq(memberStats.address, last))
    const marks = await database.db.select().from(memberEligibilityCounted)
    expect(marks.filter((mark) => mark.done).length).toBeLessThan(SNAPSHOTS.length)
    expect(await counting).toBe(SNAPSHOTS.length * Math.ceil((DELEGATES + 1) / 2))
    expect(await storedEligible()).toEqual(expectedEligible(HEAD))
  })
})
