// The members directory's orders, search and pages over HTTP against a real chain (anvil with the demo DAO)
// and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh); the setup is the kit's members
// bed (testbed/beds/members.ts).
import type { MemberList } from '@guildhall/core'
import type { Address } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { allPages, chain, database, get, page, sync, useMembersBed } from '../../testbed/beds/members.ts'
import { delegate } from '../../testbed/demo-token.ts'
import { member } from '../../testbed/signers.ts'
import { nameProfiles } from '../platform/db/schema.ts'

// The demo DAO: Ada votes with her and Dev's tokens, Ben with his and Eve's; Finn, Gia and Hugo never
// delegated; Iris holds nothing.
const ada = member(1)
const ben = member(2)
const cleo = member(3)
const _iris = member(9)

useMembersBed()

describe('orders, search and pages', () => {
  test('behavior: by power, by delegators, by participation: each page in its order, the address breaking ties, every member once', async () => {
    const everyone = (await allPages('?limit=100')).map((row) => row.address).sort()
    for (const sort of ['power', 'delegators', 'participation'] as const) {
      const rows = await allPages(`?sort=${sort}&limit=2`)
      expect(rows.map((row) => row.address).sort(), sort).toEqual(everyone)
      const key = (row: MemberList['members'][number]) => {
        const votes = BigInt(row.votes).toString().padStart(80, '0')
        const first =
          sort === 'power'
            ? ''
            : String(
                sort === 'delegators' ? row.delegators : Math.round((row.participation ?? 0) * 1e6),
              ).padStart(10, '0')
        // Ties by address are in the database's collation, which need not be JavaScript's order.
        return `${first}:${votes}`
      }
      const keys = rows.map(key)
      expect(keys, sort).toEqual([...keys].sort().reverse())
    }
    const byDelegators = await page('?sort=delegators&limit=2')
    expect(byDelegators.members.map((row) => row.address)).toEqual([ada.address, ben.address])
  })

  test('behavior: search by the start of an address in any case; "0x" is everyone', async () => {
    const prefix = ben.address.slice(0, 7).toUpperCase().replace('0X', '0x')
    const found = await page(`?q=${prefix}`)
    expect(found.members.map((row) => row.address)).toContain(ben.address)
    expect(found.members.every((row) => row.address.toLowerCase().startsWith(prefix.toLowerCase()))).toBe(
      true,
    )
    expect((await page(`?q=${ben.address.toLowerCase()}`)).members.map((row) => row.address)).toEqual([
      ben.address,
    ])
    expect((await allPages('?q=0x&limit=100')).length).toBe((await allPages('?limit=100')).length)
  })

  test('behavior: search by the start of a name in any case or by the full name; a reverse record whose forward check failed, a name of no member and an unnamed member are not found; pages under a name search keep their order', async () => {
    const resolvedAt = new Date()
    const profile = (
      address: Address,
      name: string | null,
      expiresAt = new Date(Date.now() + 3_600_000),
    ) => ({
      address,
      name,
      avatarRecord: null,
      avatarUrl: null,
      resolvedAt,
      expiresAt,
      requestedAt: null,
    })
    const [dev, eve, finn, gia] = [member(4), member(5), member(6), member(7)]
    const stranger = privateKeyToAccount(generatePrivateKey())
    // As the name refresher stores them: Eve's reverse record claims ada.eth, which resolves to Ada, so
    // Eve has no name; Gia's name expired and waits for its refresh, still answered meanwhile.
    await database.db
      .insert(nameProfiles)
      .values([
        profile(ada.address, 'ada.eth'),
        profile(ben.address, 'ben.eth'),
        profile(cleo.address, 'adalbert.eth'),
        profile(dev.address, 'ada-lovelace.eth'),
        profile(eve.address, null),
        profile(finn.address, 'finn.eth'),
        profile(gia.address, 'adam.eth', new Date(Date.now() - 60_000)),
        profile(stranger.address, 'adaline.eth'),
      ])
    try {
      const found = async (q: string) =>
        (await allPages(`?q=${encodeURIComponent(q)}&limit=100`)).map((row) => row.address).sort()
      expect(await found('ada.eth')).toEqual([ada.address])
      expect(await found('  ADA.eth ')).toEqual([ada.address])
      expect(await found('ada')).toEqual([ada.address, cleo.address, dev.address, gia.address].sort())
      expect(await found('ada-')).toEqual([dev.address])
      expect(await found('finn.eth')).toEqual([finn.address])
      // A LIKE wildcard in the search matches only itself.
      expect(await found('ada_')).toEqual([])
      expect(await found('eve')).toEqual([])
      expect(await found('hugo')).toEqual([])

      for (const sort of ['power', 'delegators', 'participation']) {
        const whole = (await page(`?q=ada&sort=${sort}&limit=100`)).members.map((row) => row.address)
        expect(whole, sort).toHaveLength(4)
        const paged = (await allPages(`?q=ada&sort=${sort}&limit=1`)).map((row) => row.address)
        expect(paged, sort).toEqual(whole)
      }
    } finally {
      await database.db.delete(nameProfiles)
    }
  })

  test('behavior: pages stay whole while the directory changes: every member whose figures stay is seen once; one seen before their power fell shows again with the new figures; a newcomer above the cursor is not inserted', async () => {
    const newcomer = privateKeyToAccount(generatePrivateKey())
    const before = (await allPages('?limit=100')).map((row) => row.address)
    const seen = await allPages('?sort=power&limit=2', async (n) => {
      if (n !== 0) return
      // Between the first and second page: Ada (on the first) delegates her tokens to a newcomer, who now
      // has the most power, and her own falls to Dev's.
      await delegate(chain, 1, newcomer.address)
      await sync()
    })
    const addresses = seen.map((row) => row.address)
    for (const address of before.filter((address) => address !== ada.address))
      expect(
        addresses.filter((seenAddress) => seenAddress === address),
        address,
      ).toHaveLength(1)
    expect(seen.filter((row) => row.address === ada.address).map((row) => row.votes)).toEqual([
      '1250000000000000000000',
      '250000000000000000000',
    ])
    expect(addresses).not.toContain(newcomer.address)
    expect((await page('?limit=1')).members[0]?.address).toBe(newcomer.address)
  })

  test('behavior: a bad sort, a forged cursor, a cursor of another order, a page over 100, an overlong search or one with characters no address or name has → 400 with a sentence, never a 500', async () => {
    const first = await page('?sort=power&limit=1')
    for (const query of [
      '?sort=name',
      '?cursor=bm90LWEtY3Vyc29y',
      `?sort=delegators&cursor=${first.next}`,
      `?cursor=${Buffer.from("power:1:0x' or 1=1 --").toString('base64url')}`,
      `?cursor=${Buffer.from(`power:${'9'.repeat(79)}:${ada.address}`).toString('base64url')}`,
      '?limit=101',
      '?limit=0',
      `?q=${'a'.repeat(65)}`,
      '?q=',
      '?q=ada%25',
      '?q=ada%20eth',
      `?q=${encodeURIComponent("ada' or 1=1")}`,
      '?q=0x12%5C',
      '?page=2',
    ]) {
      const response = await get(query)
      expect(response.statusCode, query).toBe(400)
      expect(response.json().message, query).toMatch(/\w+ \w+/)
    }
    expect((await get(`?sort=delegators&cursor=${first.next}`)).json().error).toBe('bad_cursor')
  })
})
