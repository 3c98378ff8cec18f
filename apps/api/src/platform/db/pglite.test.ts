// PGlite's own behaviour, in every run: in memory or in a data dir, one connection that still lets timers in.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { openDatabase } from './client.ts'
import { newSession, slow, trackDatabases } from './client-test-helpers.ts'
import { sessions } from './schema.ts'

const track = trackDatabases()

describe('PGlite', slow, () => {
  test('without a data dir it is in memory: a second database starts empty', async () => {
    const first = track(await openDatabase())
    expect(first.kind).toBe('pglite')
    await first.migrate()
    await first.db.insert(sessions).values(newSession())
    const second = track(await openDatabase())
    await second.migrate()
    expect(await second.db.$count(sessions)).toBe(0)
  })

  test('20 concurrent transactions all complete, one after another (never interleaved)', async () => {
    const { db } = track(await openDatabase())
    await db.execute(sql`create table counter (n integer not null)`)
    await db.execute(sql`insert into counter values (0)`)
    let active = 0
    let maxActive = 0
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db.transaction(async (tx) => {
          active++
          maxActive = Math.max(maxActive, active)
          // read-modify-write: lost updates would show if transactions overlapped
          const [row] = (await tx.execute<{ n: number }>(sql`select n from counter`)).rows
          await new Promise((resolve) => setImmediate(resolve))
          await tx.execute(sql`update counter set n = ${(row?.n ?? 0) + 1}`)
          active--
          return i
        }),
      ),
    )
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(maxActive).toBe(1)
    const [row] = (await db.execute<{ n: number }>(sql`select n from counter`)).rows
    expect(row?.n).toBe(20)
  })

  test('requests queued on the one connection still let timers and sockets in: a timer fires between their queries', async () => {
    const { db } = track(await openDatabase())
    let finished = 0
    let finishedWhenTimerFired: number | undefined
    setTimeout(() => {
      finishedWhenTimerFired = finished
    }, 0)
    // 20 requests of 10 queries each, one after another as a request makes them.
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        for (let i = 0; i < 10; i++) {
          await db.execute(sql`select ${i}::int as n`)
          finished++
        }
      }),
    )
    expect(finished).toBe(200)
    expect(finishedWhenTimerFired).toBeDefined()
    expect(finishedWhenTimerFired).toBeLessThan(200)
  })

  test('a query outside an open transaction waits for it: it neither sees nor joins the uncommitted work', async () => {
    const { db, migrate } = track(await openDatabase())
    await migrate()
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let inserted = () => {}
    const insertedInTx = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const transaction = db.transaction(async (tx) => {
      await tx.insert(sessions).values(newSession())
      inserted()
      await held
      tx.rollback()
    })
    await insertedInTx
    let outsideDone = false
    const outside = db.$count(sessions).then((n) => {
      outsideDone = true
      return n
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(outsideDone).toBe(false)
    release()
    await expect(transaction).rejects.toThrow('Rollback')
    expect(await outside).toBe(0)
  })

  test('a copy asked for while a transaction is open is taken after it ends: the committed one whole in it, the rolled-back one not at all', async () => {
    const database = track(await openDatabase())
    const dump = database.dump?.bind(database)
    if (!dump) throw new Error('PGlite copies its own files')
    await database.db.execute(sql`create table pairs (n integer not null)`)
    /** Holds a transaction open with row `first` written, asks for a copy meanwhile, then ends it. */
    const copyDuring = async (end: 'commit' | 'rollback', first: number) => {
      let opened!: () => void
      const open = new Promise<void>((resolve) => (opened = resolve))
      let ended!: () => void
      const ending = new Promise<void>((resolve) => (ended = resolve))
      const events: string[] = []
      const transaction = database.db
        .transaction(async (tx) => {
          await tx.execute(sql`insert into pairs values (${first})`)
          opened()
          await ending
          await tx.execute(sql`insert into pairs values (${first + 1})`)
          if (end === 'rollback') tx.rollback()
        })
        .catch((error: Error) => {
          if (end !== 'rollback' || error.message !== 'Rollback') throw error
        })
        .then(() => events.push(`transaction ${end}`))
      await open
      const copy = dump().then((blob) => {
        events.push('copy taken')
        return blob
      })
      // Turns of the event loop with the transaction open: a copy not held back would be taken in them.
      await new Promise((resolve) => setTimeout(resolve, 200))
      ended()
      await transaction
      const taken = await copy
      expect(events).toEqual([`transaction ${end}`, 'copy taken'])
      const restored = track(
        await openDatabase({ loadDataDir: new File([await taken.arrayBuffer()], 'copy.tar.gz') }),
      )
      return (await restored.db.execute<{ n: number }>(sql`select n from pairs order by n`)).rows.map(
        (row) => row.n,
      )
    }
    expect(await copyDuring('commit', 1)).toEqual([1, 2])
    expect(await copyDuring('rollback', 3)).toEqual([1, 2])
  })

  test('rows survive closing and reopening the same data dir (and the folder is created)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'guildhall-db-'))
    const dataDir = join(root, 'data', 'db')
    try {
      const first = await openDatabase({ dataDir })
      await first.migrate()
      const [session] = await first.db
        .insert(sessions)
        .values(newSession({ tokenHash: 'kept' }))
        .returning()
      await first.close()

      const second = await openDatabase({ dataDir })
      try {
        await second.migrate()
        const rows = await second.db.select().from(sessions)
        expect(rows).toEqual([session])
      } finally {
        await second.close()
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
