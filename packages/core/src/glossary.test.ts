import { describe, expect, test } from 'vitest'
import { GLOSSARY, glossaryEntry, glossaryPath } from './glossary.ts'

describe('GLOSSARY', () => {
  test('every term a newcomer meets is there, once, with an anchor that is its id', () => {
    const ids = GLOSSARY.map((entry) => entry.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of [
      'governance-log',
      'log-entry',
      'snapshot-block',
      'voting-power',
      'quorum',
      'delegation',
    ])
      expect(ids).toContain(id)
    for (const id of ['recount', 'digest', 'result-bundle', 'participation', 'delegators'])
      expect(ids).toContain(id)
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*$/)
    expect(glossaryPath('snapshot-block')).toBe('/glossary#snapshot-block')
  })

  test('each explanation is short enough for a tooltip and says more on the page', () => {
    for (const entry of GLOSSARY) {
      expect(entry.short.length, entry.id).toBeLessThanOrEqual(200)
      expect(entry.more.length, entry.id).toBeGreaterThan(0)
      expect(glossaryEntry(entry.id)).toBe(entry)
    }
  })
})
