// The scale bench's members directory: GET /api/members against the running server with the scale chain's
// holders indexed (100,000 by default): the first page and a page deep in the list in each order, and a
// search by the start of an address and of a name, one reader at a time, each answer checked against the
// core schema.

import type { Database } from '@guildhall/api/database'
import { MEMBER_SORTS, type MemberSort, memberListSchema } from '@guildhall/core'
import { sql } from 'drizzle-orm'
import type { DirectoryLatency } from '../harness/schema.ts'
import { latency } from '../harness/stats.ts'

/** Requests per figure: enough for a p99. */
const READS = 100
/** The deep page: after this many pages of the default size (25). */
const DEEP_PAGES = 40

async function timedPage(origin: string, query: string) {
  const started = performance.now()
  const response = await fetch(new URL(`/api/members?${query}`, origin), {
    headers: { 'user-agent': 'guildhall-bench' },
  })
  const text = await response.text()
  const ms = performance.now() - started
  if (response.status !== 200)
    throw new Error(`/api/members?${query}: ${response.status} ${text.slice(0, 200)}`)
  return { ms, page: memberListSchema.parse(JSON.parse(text)) }
}

async function samples(origin: string, queries: () => string): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < READS; i++) times.push((await timedPage(origin, queries())).ms)
  return times
}

/** The cursor after `pages` pages of `sort`, walked as a member would. */
async function deepCursor(origin: string, sort: MemberSort, pages: number): Promise<string | null> {
  let cursor: string | null = null
  for (let i = 0; i < pages; i++) {
    const { page } = await timedPage(origin, `sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`)
    if (!page.next) return cursor
    cursor = page.next
  }
  return cursor
}

/** One holder in this many gets a name: `member<n>.eth`, n counting the named from 1 in address order. */
const NAMED_EVERY = 10

/**
 * Names for the directory's search, as the name refresher stores them (resolved, forward-checked, not
 * expiring during the run): one holder in ten, so the name table holds 10,000 names at 100,000 holders.
 */
export async function seedNames(database: Database) {
  await database.db.execute(sql`
    insert into name_profiles (address, name, resolved_at, expires_at)
    select address, 'member' || (n / ${NAMED_EVERY}) || '.eth', now(), now() + interval '1 day'
    from (select address, row_number() over (order by address) as n from member_stats) as holders
    where n % ${NAMED_EVERY} = 0
    on conflict (address) do nothing`)
}

/** Directory answer latencies at the server's `origin`. */
export async function directoryLatency(
  origin: string,
  log: (message: string) => void,
): Promise<DirectoryLatency> {
  log(`scale: members directory, ${MEMBER_SORTS.join(', ')}; first page, after ${DEEP_PAGES} pages, searched`)
  const { page: first } = await timedPage(origin, 'limit=1')
  if (first.members.length === 0) throw new Error('the members directory is empty')
  const sorted: DirectoryLatency['sorted'] = []
  for (const sort of MEMBER_SORTS) {
    const cursor = await deepCursor(origin, sort, DEEP_PAGES)
    sorted.push({
      sort,
      firstPage: latency(await samples(origin, () => `sort=${sort}`)),
      deepPage: latency(await samples(origin, () => `sort=${sort}${cursor ? `&cursor=${cursor}` : ''}`)),
    })
  }
  // Two hex digits after 0x: about 1 in 256 members matches, a page of them sorted by power.
  let n = 0
  const prefix = () => `0x${((n++ * 37) % 256).toString(16).padStart(2, '0')}`
  const result = {
    sorted,
    searched: latency(await samples(origin, () => `q=${prefix()}`)),
    searchedSorted: latency(await samples(origin, () => `q=${prefix()}&sort=participation`)),
    // member<n>.eth with n starting 10..99 (and so 100..999, 1000..9999, …): about 1 in 90 named members.
    searchedByName: latency(await samples(origin, () => `q=member${10 + ((n++ * 37) % 90)}`)),
  }
  const figure = (l: { p50: number; p99: number }) => `p50 ${l.p50} ms, p99 ${l.p99} ms`
  for (const run of sorted)
    log(`scale: directory by ${run.sort}: first page ${figure(run.firstPage)}; deep ${figure(run.deepPage)}`)
  log(
    `scale: directory searched: ${figure(result.searched)}; by participation ${figure(result.searchedSorted)}; by name ${figure(result.searchedByName)}`,
  )
  return result
}
