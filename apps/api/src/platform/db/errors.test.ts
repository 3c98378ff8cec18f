// What a database error means (errors.ts), on the backend `testDatabase()` picks.
import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { backend, newSession, slow, trackDatabases } from './client-test-helpers.ts'
import { isUniqueViolation, sqlState } from './errors.ts'
import { sessions } from './schema.ts'
import { testDatabase } from './test-database.ts'

const track = trackDatabases()

describe(`database on ${backend} (the backend integration tests get)`, slow, () => {
  test('a duplicate token hash is a unique violation isUniqueViolation() recognises; other errors are not', async () => {
    const { db } = track(await testDatabase())
    await db.insert(sessions).values(newSession({ tokenHash: 'same' }))
    const duplicate = await db
      .insert(sessions)
      .values(newSession({ tokenHash: 'same' }))
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(duplicate).toBeInstanceOf(Error)
    expect(isUniqueViolation(duplicate)).toBe(true)
    expect(sqlState(duplicate)).toBe('23505')

    const notNull = await db.execute(sql`insert into sessions (token_hash) values ('x')`).then(
      () => null,
      (error: unknown) => error,
    )
    expect(sqlState(notNull)).toBe('23502')
    expect(isUniqueViolation(notNull)).toBe(false)
    expect(isUniqueViolation(new Error('plain'))).toBe(false)
    expect(isUniqueViolation(undefined)).toBe(false)
  })
})
