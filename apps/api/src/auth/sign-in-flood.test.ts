// The adversarial case of the members directory (ADR 037, docs/security.md): a script signing in with fresh
// keys, each a real Sign-In with Ethereum over HTTP against the server listening on a port, with the demo DAO
// on a real chain (anvil), the local name service and a real database (PGlite, or PostgreSQL under
// scripts/with-postgres.sh). The directory's default view, its rows and the name table stay as they were;
// each account is still found by its address.
import {
  MEMBER_SORTS,
  type MemberList,
  memberListSchema,
  memberProfileSchema,
  nameListSchema,
} from '@guildhall/core'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import { type NameService, startNameService } from '@guildhall/devchain/name-service'
import type { FastifyInstance } from 'fastify'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { signIn } from '../../testbed/sign-in.ts'
import { testSettings } from '../../testbed/test-app.ts'
import { buildApp } from '../app.ts'
import { seedDemoDatabase } from '../demo/governance-seed.ts'
import { nameServiceEnv, startDemoChain } from '../demo/local-chain.ts'
import { checkMemberStats } from '../member-stats/vote-moves.ts'
import { memberStats, nameProfiles, sessions } from '../platform/db/schema.ts'
import { type TestDatabase, testDatabase } from '../platform/db/test-database.ts'

const DAO_NAME = 'Guildhall Sign-in Flood Test DAO'
/** Fresh keys signing in, and how many at once. */
const KEYS = 1_000
const AT_ONCE = 8

let anvil: AnvilInstance
let nameService: NameService
let database: TestDatabase
let app: FastifyInstance
let origin: string

const get = (url: string) => app.inject({ method: 'GET', url })
/** Every page of the default view in `sort` (no search), as a reader walks it. */
async function defaultView(sort: string): Promise<MemberList[]> {
  const pages: MemberList[] = []
  let next: string | null = null
  do {
    const response = await get(`/api/members?sort=${sort}&limit=100${next ? `&cursor=${next}` : ''}`)
    expect(response.statusCode, response.body).toBe(200)
    const page = memberListSchema.parse(response.json())
    pages.push(page)
    next = page.next
  } while (next)
  return pages
}
const directory = async () => ({
  firstPage: memberListSchema.parse((await get('/api/members')).json()),
  pages: Object.fromEntries(
    await Promise.all(MEMBER_SORTS.map(async (sort) => [sort, await defaultView(sort)])),
  ),
  rows: await database.db.$count(memberStats),
  names: await database.db.$count(nameProfiles),
})

beforeAll(async () => {
  let deployment: Awaited<ReturnType<typeof startDemoChain>>['deployment']
  ;[{ anvil, deployment }, nameService] = await Promise.all([startDemoChain(), startNameService()])
  database = await testDatabase()
  const port = await getFreePort()
  origin = `http://127.0.0.1:${port}`
  const settings = testSettings({
    rpcUrl: anvil.url,
    deployment,
    origin,
    env: {
      DAO_NAME,
      ...nameServiceEnv(nameService),
      TOKEN_INDEX_CONFIRMATIONS: '0',
      // The flood comes from one address here; in the wild, from as many as the attacker rents.
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    },
  })
  expect(await seedDemoDatabase(settings, database)).toBe(8)
  app = await buildApp({ settings, database })
  await app.listen({ host: '127.0.0.1', port })
}, 90_000)

afterAll(async () => {
  await app?.close()
  await database?.close()
  await Promise.all([anvil?.stop(), nameService?.stop()])
})

test(`security: ${KEYS} fresh keys signing in (real SIWE over HTTP) and asking for their names leave the directory’s default view, its rows and the name table as they were; each account is still found by its address, with nothing`, async () => {
  const before = await directory()
  expect(before.firstPage.members.length).toBeGreaterThan(0)
  const sessionsBefore = await database.db.$count(sessions)

  const accounts = Array.from({ length: KEYS }, () => privateKeyToAccount(generatePrivateKey()))
  for (let i = 0; i < accounts.length; i += AT_ONCE)
    await Promise.all(accounts.slice(i, i + AT_ONCE).map((account) => signIn(origin, account, DAO_NAME)))
  expect(await database.db.$count(sessions)).toBe(sessionsBefore + KEYS)
  // What the web app asks next for a signed-in account: its name (the account button). Not a member: no
  // name, not pending, nothing queued.
  for (let i = 0; i < accounts.length; i += 100) {
    const addresses = accounts.slice(i, i + 100).map((account) => account.address)
    const response = await get(`/api/names?addresses=${addresses.join(',')}`)
    expect(response.statusCode, response.body).toBe(200)
    expect(
      nameListSchema.parse(response.json()).names.every((answer) => !answer.pending && !answer.name),
    ).toBe(true)
  }

  expect(await directory()).toEqual(before)
  expect(await checkMemberStats(database.db)).toMatchObject({ mismatches: [] })
  for (const { address } of accounts) {
    const profile = await get(`/api/members/${address}`)
    expect(profile.statusCode, profile.body).toBe(200)
    expect(memberProfileSchema.parse(profile.json())).toMatchObject({
      address,
      votes: '0',
      balance: '0',
      delegators: 0,
      votesCast: 0,
      listed: false,
    })
    const search = memberListSchema.parse((await get(`/api/members?q=${address.toLowerCase()}`)).json())
    expect(search.members.map((row) => [row.address, row.votes, row.balance])).toEqual([[address, '0', '0']])
  }
}, 600_000)
