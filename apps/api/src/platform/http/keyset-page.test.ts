// Every list's page link at the limits of its shape, over HTTP against the demo DAO's seeded proposals and
// votes on a real chain (anvil) and a real database (PGlite, or PostgreSQL under scripts/with-postgres.sh):
// each field at its column's largest value reads a page, one past it or in any other spelling is a 400
// `bad_cursor`, never a 500 (the database refusing an out-of-range value).
import type { FastifyInstance } from 'fastify'
import { maxUint256 } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { member } from '../../../testbed/signers.ts'
import { startTestbed, stopTestbed, type Testbed, testApp, testSettings } from '../../../testbed/test-app.ts'
import { seedDemoDatabase } from '../../demo/governance-seed.ts'

const ada = member(1)

/** What each kind of field holds: its largest value, or (address, digest) a valid value. */
type Kind = 'int4' | 'millionths' | 'int8' | 'uint256' | 'address' | 'digest'
const MAX: Record<'int4' | 'millionths' | 'int8' | 'uint256', bigint> = {
  int4: 2n ** 31n - 1n,
  millionths: 1_000_000n,
  int8: 2n ** 63n - 1n,
  uint256: maxUint256,
}
const valid = (kind: Kind): string =>
  kind === 'address' ? ada.address : kind === 'digest' ? `0x${'f'.repeat(64)}` : String(MAX[kind])

/** Spellings of a field that no column of its kind holds, or that the server never writes. */
function invalid(kind: Kind): string[] {
  if (kind === 'address')
    return [
      ada.address.toLowerCase(),
      ada.address.slice(0, 41),
      `${ada.address}0`,
      ada.address.slice(2),
      `0x${'g'.repeat(40)}`,
      "0x' or 1=1 --",
      '',
    ]
  if (kind === 'digest')
    return [`0x${'f'.repeat(63)}`, `0x${'f'.repeat(65)}`, `0x${'F'.repeat(64)}`, `0x${'g'.repeat(64)}`, '']
  const max = MAX[kind]
  return [
    String(max + 1n),
    ...(max < 2n ** 64n ? [String(2n ** 64n)] : []),
    '9'.repeat(String(max).length + 1),
    '-1',
    '01',
    `0${max}`,
    '1e3',
    '1.5',
    '+1',
    ' 1',
    '0x10',
    '',
  ]
}

const encode = (parts: readonly string[]) => Buffer.from(parts.join(':')).toString('base64url')

type List = { name: string; url: (cursor: string) => string; tag: string | null; fields: Kind[] }

let testbed: Testbed
let app: FastifyInstance
let proposalId: string
let lists: List[]

const get = (url: string) => app.inject({ method: 'GET', url })
/** The list's rows (whatever the list calls them): its one array. */
const rows = (body: Record<string, unknown>) => Object.values(body).find(Array.isArray) as unknown[]

beforeAll(async () => {
  testbed = await startTestbed()
  const env = { TOKEN_INDEX_CONFIRMATIONS: '0' }
  const settings = testSettings({ rpcUrl: testbed.anvil.url, deployment: testbed.deployment, env })
  expect(await seedDemoDatabase(settings, testbed.database)).toBe(8)
  app = await testApp(testbed, { env })
  const proposals = (await get('/api/proposals?limit=100')).json() as { proposals: { id: string }[] }
  // A proposal with votes: Ada voted on three of the seeded ones.
  for (const { id } of proposals.proposals) {
    const votes = (await get(`/api/proposals/${id}/votes`)).json() as { votes: unknown[] }
    if (votes.votes.length > 1) proposalId = id
  }
  expect(proposalId).toBeDefined()
  const member = `/api/members/${ada.address}`
  const votes = `/api/proposals/${proposalId}/votes`
  lists = [
    {
      name: 'members by power',
      url: (c) => `/api/members?cursor=${c}`,
      tag: 'power',
      fields: ['uint256', 'address'],
    },
    {
      name: 'members by delegators',
      url: (c) => `/api/members?sort=delegators&cursor=${c}`,
      tag: 'delegators',
      fields: ['int4', 'uint256', 'address'],
    },
    {
      name: 'members by participation, searched',
      url: (c) => `/api/members?sort=participation&q=0x&cursor=${c}`,
      tag: 'participation',
      fields: ['millionths', 'uint256', 'address'],
    },
    { name: 'proposals', url: (c) => `/api/proposals?cursor=${c}`, tag: null, fields: ['int8', 'digest'] },
    {
      name: 'proposals filtered by state',
      url: (c) => `/api/proposals?state=final,active&cursor=${c}`,
      tag: null,
      fields: ['int8', 'digest'],
    },
    {
      name: 'votes by power',
      url: (c) => `${votes}?cursor=${c}`,
      tag: 'power',
      fields: ['uint256', 'address'],
    },
    {
      name: 'votes by time, filtered',
      url: (c) => `${votes}?order=time&choice=1&voter=0x&cursor=${c}`,
      tag: 'time',
      fields: ['int8', 'address'],
    },
    {
      name: 'a member’s votes',
      url: (c) => `${member}/votes?cursor=${c}`,
      tag: null,
      fields: ['int8', 'digest'],
    },
    {
      name: 'a member’s proposals',
      url: (c) => `${member}/proposals?cursor=${c}`,
      tag: null,
      fields: ['int8', 'digest'],
    },
    {
      name: 'a member’s delegators',
      url: (c) => `${member}/delegators?cursor=${c}`,
      tag: null,
      fields: ['uint256', 'address'],
    },
  ]
}, 90_000)

afterAll(() => stopTestbed(testbed, app))

async function expectBadCursor(url: string) {
  const response = await get(url)
  expect(response.statusCode, `${url}: ${response.body}`).toBe(400)
  expect(response.json(), url).toEqual({ error: 'bad_cursor', message: expect.stringMatching(/\w+ \w+/) })
}

describe('page links at their limits', () => {
  test('behavior: every list’s cursor with each field at its column’s largest value answers a page: every row, as the first page', async () => {
    for (const list of lists) {
      const first = await get(list.url('').replace(/[?&]cursor=$/, ''))
      expect(first.statusCode, list.name).toBe(200)
      expect(rows(first.json()).length, list.name).toBeGreaterThan(0)
      const parts = list.fields.map(valid)
      const atMax = await get(list.url(encode(list.tag === null ? parts : [list.tag, ...parts])))
      expect(atMax.statusCode, `${list.name}: ${atMax.body}`).toBe(200)
      expect(rows(atMax.json()), list.name).toEqual(rows(first.json()))
    }
  })

  test('security: one past a field’s largest value, a negative, a leading zero, an overlong or spelled-out number, a wrong address or digest, another tag, a missing or extra field, non-base64 or padded text, an overlong link → 400 bad_cursor on every list, never a 500', async () => {
    for (const list of lists) {
      const tagged = (parts: string[]) => encode(list.tag === null ? parts : [list.tag, ...parts])
      const good = list.fields.map(valid)
      const cursors: string[] = []
      list.fields.forEach((kind, i) => {
        for (const bad of invalid(kind)) cursors.push(tagged(good.map((part, j) => (j === i ? bad : part))))
      })
      cursors.push(
        tagged([...good, '0']),
        tagged(good.slice(0, -1)),
        encode(list.tag === null ? ['power', ...good] : ['other', ...good]),
        encode(good.map((part) => part.padStart(part.length + 1, ' '))),
        // The same text in other spellings of base64: padded, with a line break, a stray character.
        `${tagged(good)}=`,
        `${tagged(good)}%3D%3D`,
        `${tagged(good)}%0A`,
        `${tagged(good)}%2B`,
        `${tagged(good)}.`,
        '%21%21%21%21',
        'bm90LWEtY3Vyc29y',
        'A'.repeat(201),
        `${tagged(good)}${'A'.repeat(200)}`,
        '',
      )
      for (const cursor of cursors) await expectBadCursor(list.url(cursor))
    }
  })

  test('security: the log’s page (GET /api/governance/log?after=) takes a seq up to the bigint column’s largest value and refuses any other spelling with 400 bad_cursor', async () => {
    const all = await get('/api/governance/log')
    expect(all.statusCode).toBe(200)
    expect((await get('/api/governance/log?after=0')).json()).toEqual(all.json())
    const atMax = await get(`/api/governance/log?after=${MAX.int8}`)
    expect(atMax.statusCode, atMax.body).toBe(200)
    expect(atMax.json()).toEqual({ entries: [] })
    for (const after of invalid('int8'))
      await expectBadCursor(`/api/governance/log?after=${encodeURIComponent(after)}`)
  })
})
