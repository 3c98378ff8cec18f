// Upgrading a database indexed before vote checkpoints carried block times (migration 0012, ADR 040): the
// old rows are dropped and the index, sent back to a start block no configuration has, resets itself and
// indexes again from the chain (a real anvil with the demo DAO), every vote checkpoint dated. PGlite: the
// migration's SQL is the same on PostgreSQL.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { LOCAL_CHAIN_ID, MULTICALL3_ADDRESS } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import { sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { createPublicClient, createTestClient, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { demoAccount, demoTokenIndex, expectIndexEqualsChain } from '../../testbed/demo-token.ts'
import { startDemoChain } from '../demo/local-chain.ts'
import { type Database, migrationsFolder, openDatabase } from '../platform/db/client.ts'
import { tokenVoteCheckpoints } from '../platform/db/schema.ts'

let anvil: AnvilInstance
let deployment: DemoDeployment
let chain: PublicClient
let head: number
let database: Database | undefined

beforeAll(async () => {
  ;({ anvil, deployment } = await startDemoChain())
  chain = createPublicClient({ transport: http(anvil.url) }) as PublicClient
  head = Number(await chain.getBlockNumber())
  // One block above `head`, so getPastVotes can be asked about every indexed block.
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 1 })
}, 60_000)

afterAll(async () => {
  await database?.close()
  await anvil?.stop()
})

/** A PGlite data dir migrated through 0011, the last migration before block times, with an indexed look. */
async function databaseBeforeBlockTimes(): Promise<Blob> {
  const folder = await mkdtemp(join(tmpdir(), 'guildhall-before-0012-'))
  try {
    await cp(migrationsFolder, folder, { recursive: true })
    const journalPath = join(folder, 'meta', '_journal.json')
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] }
    journal.entries = journal.entries.filter((entry) => entry.idx <= 11)
    await writeFile(journalPath, JSON.stringify(journal))
    const client = await PGlite.create()
    try {
      const db = drizzle({ client })
      await migrate(db, { migrationsFolder: folder })
      const { hash } = await chain.getBlock({ blockNumber: BigInt(head) })
      await db.execute(sql`
        insert into token_index_cursor (id, chain_id, token, from_block, block, block_hash, total_votes)
        values ('governance-token', ${LOCAL_CHAIN_ID}, ${deployment.token}, ${deployment.deployBlock}, ${head}, ${hash}, 1)`)
      await db.execute(sql`
        insert into token_vote_checkpoints (delegate, block, votes) values (${demoAccount(1)}, ${head}, 1)`)
      return await client.dumpDataDir('none')
    } finally {
      await client.close()
    }
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

test('behavior: migration 0012 drops the undated vote checkpoints and sends the index back to the start; its next sync resets, indexes the chain again and dates every vote checkpoint with its block’s time', async () => {
  database = await openDatabase({ loadDataDir: await databaseBeforeBlockTimes() })
  await database.migrate()
  const { db } = database
  expect(await db.select().from(tokenVoteCheckpoints)).toEqual([])
  const cursor = await db.execute<{ from_block: string | number; block_time: unknown }>(
    sql`select from_block, block_time from token_index_cursor`,
  )
  expect(cursor.rows.map((row) => [Number(row.from_block), row.block_time])).toEqual([[-1, null]])

  const index = demoTokenIndex({ db, client: chain, deployment }, { multicall3: MULTICALL3_ADDRESS })
  // Before the sync the stale cursor is not this configuration's: nothing is answered from it.
  expect(await index.totalVotes()).toBeUndefined()
  expect(await index.syncOnce()).toMatchObject({ indexedBlock: head + 1, rewoundTo: null })
  await expectIndexEqualsChain(index, chain, deployment, head)
  const rows = await db.select().from(tokenVoteCheckpoints)
  expect(rows.length).toBeGreaterThan(0)
  for (const row of rows) {
    const { timestamp } = await chain.getBlock({ blockNumber: BigInt(row.block) })
    expect(row.blockTime, `block ${row.block}`).toBe(Number(timestamp))
  }
  const { timestamp } = await chain.getBlock({ blockNumber: BigInt(head + 1) })
  expect((await index.totalVotes())?.blockTime).toBe(Number(timestamp))
}, 120_000)
