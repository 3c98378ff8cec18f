// Atom feeds and the ICS calendar (ADR 055), written by hand: each is a few dozen lines of escaping and
// layout, less than a library's options. Bounded to the latest entries, cacheable (an ETag of the body), and
// every text a member wrote escaped for its format.
import { createHash } from 'node:crypto'

/** RFC 3339 in UTC, as Atom's dates are. */
const rfc3339 = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z')

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
}

/**
 * Text safe as XML element content and attribute value; characters XML 1.0 cannot hold (most control
 * characters, lone surrogates) are dropped rather than make the feed unreadable.
 */
function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char)
}

export type AtomEntry = {
  /** A permanent IRI: the page's URL. */
  id: string
  title: string
  updated: Date
  published: Date
  link: string
  author: string
  summary: string
  /** Plain text (markdown as written), shown by readers as text. */
  content?: string
}

export type AtomFeed = {
  /** The feed's own URL, also its id. */
  self: string
  /** The page it follows. */
  alternate: string
  title: string
  subtitle?: string
  entries: AtomEntry[]
}

/** An Atom 1.0 document (RFC 4287): the feed's id, title, updated, self and alternate links, and its entries. */
export function atomDocument(feed: AtomFeed): string {
  // A feed without entries was last updated never: the epoch keeps the document (and its ETag) stable.
  const updated = new Date(Math.max(0, ...feed.entries.map((entry) => entry.updated.getTime())))
  const entries = feed.entries.map(
    (entry) =>
      '<entry>' +
      `<id>${escapeXml(entry.id)}</id>` +
      `<title type="text">${escapeXml(entry.title)}</title>` +
      `<updated>${rfc3339(entry.updated)}</updated>` +
      `<published>${rfc3339(entry.published)}</published>` +
      `<link rel="alternate" type="text/html" href="${escapeXml(entry.link)}"/>` +
      `<author><name>${escapeXml(entry.author)}</name></author>` +
      `<summary type="text">${escapeXml(entry.summary)}</summary>` +
      (entry.content === undefined ? '' : `<content type="text">${escapeXml(entry.content)}</content>`) +
      '</entry>',
  )
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom">' +
    `<id>${escapeXml(feed.self)}</id>` +
    `<title type="text">${escapeXml(feed.title)}</title>` +
    (feed.subtitle ? `<subtitle type="text">${escapeXml(feed.subtitle)}</subtitle>` : '') +
    `<updated>${rfc3339(updated)}</updated>` +
    `<link rel="self" type="application/atom+xml" href="${escapeXml(feed.self)}"/>` +
    `<link rel="alternate" type="text/html" href="${escapeXml(feed.alternate)}"/>` +
    '<generator>Guildhall</generator>' +
    entries.join('') +
    '</feed>\n'
  )
}

export type CalendarEvent = {
  uid: string
  summary: string
  description: string
  url: string
  start: Date
  end: Date
  /** When the event was written (the proposal's creation). */
  stamp: Date
}

/** An iCalendar text value (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped. */
function escapeIcsText(text: string): string {
  return text
    .replace(/[\\;,]/g, (char) => `\\${char}`)
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[^\t\u0020-\u007e\u00a0-\u{10ffff}]/gu, '')
}

const icsDate = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')

/** A content line folded at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = []
  let current = ''
  let octets = 0
  for (const char of line) {
    const size = Buffer.byteLength(char)
    // The first line holds 75 octets; each continuation has a leading space, so 74 more.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current)
      current = ''
      octets = 0
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

/** An iCalendar (RFC 5545) of events with UTC times, CRLF line ends and folded lines. */
export function icsDocument(name: string, events: CalendarEvent[]): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Guildhall//Voting windows//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeIcsText(name)}`,
    ...events.flatMap((event) => [
      'BEGIN:VEVENT',
      `UID:${escapeIcsText(event.uid)}`,
      `DTSTAMP:${icsDate(event.stamp)}`,
      `DTSTART:${icsDate(event.start)}`,
      `DTEND:${icsDate(event.end)}`,
      `SUMMARY:${escapeIcsText(event.summary)}`,
      `DESCRIPTION:${escapeIcsText(event.description)}`,
      `URL:${event.url}`,
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ]
  return `${lines.map(fold).join('\r\n')}\r\n`
}

/** A strong ETag of a body. */
export const etagOf = (body: string) =>
  `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
