// The Atom feeds and the ICS calendar (feed-routes.ts, ADR 055) of proposals accepted by the API on a real
// chain and database (PGlite, or PostgreSQL under scripts/with-postgres.sh): each feed parses as XML (jsdom's
// XML parser) with Atom's required elements and RFC 3339 dates, text a member wrote comes back unchanged
// after escaping, the calendar has one VEVENT per proposal with UTC times; and the served HTML links the feeds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { APP_SHELL_PLACEHOLDER, PUBLIC_CONFIG_PLACEHOLDER } from '@guildhall/core'
import type { AnvilInstance } from '@guildhall/devchain/anvil'
import type { DemoDeployment } from '@guildhall/devchain/demo-dao'
import type { FastifyInstance } from 'fastify'
import { JSDOM } from 'jsdom'
import { createPublicClient, createTestClient, type Hex, http } from 'viem'
import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { demoDomain, member, nowSeconds, type ProposalFields, signProposal } from '../../testbed/signers.ts'
import { ORIGIN, postJson, startTestbed, stopTestbed, testApp } from '../../testbed/test-app.ts'
import type { TestDatabase } from '../platform/db/test-database.ts'
import { CALENDAR_EVENTS, FEED_ENTRIES } from './feed-routes.ts'

vi.setConfig({ testTimeout: 60_000 })
const ada = member(1)
/** Markup, quotes, an ampersand, an emoji, iCalendar's separators and a line break: all must come back as written. */
const HOSTILE_TITLE = 'Fund <script>alert("x")</script> & the \'roof\'; now, 🏠'
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

let anvil: AnvilInstance
let deployment: DemoDeployment
let database: TestDatabase
let app: FastifyInstance
let webDist: string
const created: { id: Hex; title: string; start: number; end: number }[] = []

beforeAll(async () => {
  ;({ anvil, deployment, database } = await startTestbed())
  await createTestClient({ mode: 'anvil', transport: http(anvil.url) }).mine({ blocks: 2 })
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  webDist = await mkdtemp(join(tmpdir(), 'guildhall-feeds-'))
  await writeFile(
    join(webDist, 'index.html'),
    `<!doctype html><html><head>${PUBLIC_CONFIG_PLACEHOLDER}</head><body><div id="root">${APP_SHELL_PLACEHOLDER}</div></body></html>`,
  )
  app = await testApp({ anvil, deployment, database }, { env: { SIGN_IN: 'off', WEB_DIST: webDist } })
  const now = nowSeconds()
  const proposals: Partial<ProposalFields>[] = [
    { title: 'Repair the roof', body: 'The **roof** leaks.\nBadly.' },
    { title: HOSTILE_TITLE, body: 'Body with <b>markup</b> & a control character \u0001 dropped.' },
    { title: 'Later vote', start: now + 3600, end: now + 3 * 3600 },
  ]
  for (const fields of proposals) {
    const { message, signature, id } = await signProposal(ada, demoDomain(deployment), {
      snapshot,
      ...fields,
    })
    const response = await postJson(app, '/api/proposals', { message, signature })
    expect(response.statusCode, response.body).toBe(201)
    created.push({ id, title: message.title, start: message.start, end: message.end })
  }
}, 60_000)

afterAll(async () => {
  await stopTestbed({ anvil, database }, app)
  if (webDist) await rm(webDist, { recursive: true, force: true })
})

/** The document parsed as XML; a parse error fails the test. */
function parseXml(text: string): Document {
  const document = new new JSDOM().window.DOMParser().parseFromString(text, 'application/xml')
  expect(document.getElementsByTagName('parsererror'), 'the feed is well-formed XML').toHaveLength(0)
  return document
}

const ATOM = 'http://www.w3.org/2005/Atom'
const child = (element: Element | Document, name: string) =>
  [...(element as Element).children].filter((node) => node.namespaceURI === ATOM && node.localName === name)
const text = (element: Element | Document, name: string) => child(element, name)[0]?.textContent ?? undefined

/** Atom's required elements (RFC 4287 §4.1.1, §4.1.2) on the feed and each entry; answers the entries. */
function expectAtom(document: Document, self: string) {
  const feed = document.documentElement
  expect(feed.namespaceURI).toBe(ATOM)
  expect(feed.localName).toBe('feed')
  expect(text(feed, 'id')).toBe(self)
  expect(text(feed, 'title')).toBeTruthy()
  expect(text(feed, 'updated')).toMatch(RFC3339)
  const links = child(feed, 'link').map((link) => [link.getAttribute('rel'), link.getAttribute('href')])
  expect(links).toContainEqual(['self', self])
  const entries = child(feed, 'entry')
  for (const entry of entries) {
    expect(text(entry, 'id')).toMatch(/^https?:\/\//)
    expect(text(entry, 'title')).toBeDefined()
    expect(text(entry, 'updated')).toMatch(RFC3339)
    expect(child(entry, 'link')[0]?.getAttribute('href')).toMatch(/^https?:\/\//)
    expect(child(child(entry, 'author')[0] as Element, 'name')).toHaveLength(1)
  }
  return entries
}

test('GET /feeds/proposals.atom: Atom (well-formed, required elements, RFC 3339 dates), newest first, titles and bodies as written, application/atom+xml, cacheable with an ETag answered 304', async () => {
  const response = await app.inject({ url: '/feeds/proposals.atom' })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8')
  expect(response.headers['cache-control']).toBe('public, max-age=60')
  const entries = expectAtom(parseXml(response.body), `${ORIGIN}/feeds/proposals.atom`)
  expect(entries.map((entry) => text(entry, 'title'))).toEqual([...created].reverse().map((p) => p.title))
  expect(entries.map((entry) => text(entry, 'id'))).toEqual(
    [...created].reverse().map((p) => `${ORIGIN}/proposals/${p.id}`),
  )
  const hostile = entries[1] as Element
  expect(text(hostile, 'content')).toBe('Body with <b>markup</b> & a control character  dropped.')
  expect(response.body).not.toContain('<script>')
  expect(text(parseXml(response.body).documentElement, 'updated')).toBe(
    text(entries[0] as Element, 'updated'),
  )
  expect(FEED_ENTRIES).toBe(50)

  const etag = response.headers.etag as string
  expect(etag).toMatch(/^"[\w-]+"$/)
  const again = await app.inject({ url: '/feeds/proposals.atom', headers: { 'if-none-match': etag } })
  expect(again.statusCode).toBe(304)
  expect(again.body).toBe('')
})

test('GET /feeds/proposals/:id/discussion.atom: the proposal as its first entry; an unknown proposal is a 404 and a malformed id a 400, each {error, message}', async () => {
  const [first] = created as [(typeof created)[number]]
  const self = `${ORIGIN}/feeds/proposals/${first.id}/discussion.atom`
  const response = await app.inject({ url: `/feeds/proposals/${first.id}/discussion.atom` })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8')
  const entries = expectAtom(parseXml(response.body), self)
  expect(entries.map((entry) => text(entry, 'title'))).toEqual(['Repair the roof'])
  expect(child(parseXml(response.body).documentElement, 'link').map((l) => l.getAttribute('href'))).toContain(
    `${ORIGIN}/proposals/${first.id}`,
  )

  const unknown = await app.inject({ url: `/feeds/proposals/0x${'00'.repeat(32)}/discussion.atom` })
  expect(unknown.statusCode).toBe(404)
  expect(unknown.json()).toMatchObject({ error: 'unknown_proposal', message: expect.any(String) })
  const malformed = await app.inject({ url: '/feeds/proposals/0x12/discussion.atom' })
  expect(malformed.statusCode).toBe(400)
  expect(malformed.json()).toMatchObject({
    error: 'bad_request',
    message: expect.stringContaining('proposal id'),
  })
})

test('GET /feeds/topics.atom: Atom with the required elements, its entries the latest topics', async () => {
  const response = await app.inject({ url: '/feeds/topics.atom' })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8')
  expectAtom(parseXml(response.body), `${ORIGIN}/feeds/topics.atom`)
})

test('GET /calendar.ics: text/calendar with CRLF lines of at most 75 octets, one VEVENT per proposal (UID, DTSTAMP, DTSTART and DTEND in UTC, SUMMARY escaped), cacheable', async () => {
  const response = await app.inject({ url: '/calendar.ics' })
  expect(response.statusCode).toBe(200)
  expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8')
  expect(response.headers['cache-control']).toBe('public, max-age=60')
  const ics = response.body
  expect(ics.endsWith('\r\n')).toBe(true)
  const physical = ics.slice(0, -2).split('\r\n')
  expect(physical.filter((line) => line.includes('\n') || line.includes('\r'))).toEqual([])
  for (const line of physical) expect(Buffer.byteLength(line), line).toBeLessThanOrEqual(75)
  // Unfolded (RFC 5545 §3.1): a line starting with a space continues the one before.
  const lines = ics.slice(0, -2).replaceAll('\r\n ', '').split('\r\n')
  expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0'])
  expect(lines).toContain('PRODID:-//Guildhall//Voting windows//EN')
  expect(lines.at(-1)).toBe('END:VCALENDAR')
  const events = ics
    .replaceAll('\r\n ', '')
    .split('BEGIN:VEVENT\r\n')
    .slice(1)
    .map((block) =>
      Object.fromEntries(
        block.split('\r\n').map((line) => [line.split(':')[0], line.slice(line.indexOf(':') + 1)]),
      ),
    )
  expect(events).toHaveLength(created.length)
  const host = new URL(ORIGIN).host
  const utc = (seconds: number) =>
    new Date(seconds * 1000)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '')
  for (const proposal of created) {
    const event = events.find((e) => e.UID === `${proposal.id}@${host}`)
    expect(event, proposal.title).toMatchObject({
      DTSTART: utc(proposal.start),
      DTEND: utc(proposal.end),
      URL: `${ORIGIN}/proposals/${proposal.id}`,
    })
    expect(event?.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/)
  }
  const hostile = events.find((e) => e.UID === `${created[1]?.id}@${host}`)
  expect(hostile?.SUMMARY).toBe('Vote: Fund <script>alert("x")</script> & the \'roof\'\\; now\\, 🏠')
  expect(CALENDAR_EVENTS).toBe(200)
})

test('the served HTML links the feeds (autodiscovery): a proposal page its discussion feed and the proposals feed', async () => {
  const [first] = created as [(typeof created)[number]]
  const page = await app.inject({ url: `/proposals/${first.id}` })
  expect(page.statusCode).toBe(200)
  const head = new JSDOM(page.body).window.document.head
  expect(
    [...head.querySelectorAll('link[rel="alternate"][type="application/atom+xml"]')].map((link) =>
      link.getAttribute('href'),
    ),
  ).toEqual([`/feeds/proposals/${first.id}/discussion.atom`, '/feeds/proposals.atom'])
  // The feeds are not pages: an unknown feed path is the API's 404, not the app.
  const unknown = await app.inject({ url: '/feeds/nothing.atom' })
  expect(unknown.statusCode).toBe(404)
  expect(unknown.json()).toMatchObject({ error: 'not_found' })
})
