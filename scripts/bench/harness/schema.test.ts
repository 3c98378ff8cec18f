import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { benchJsonSchema } from './schema.ts'

const committed = resolve(import.meta.dirname, '../../../docs/bench.json')

describe('docs/bench.json (the figures in docs/benchmarks.md)', () => {
  test('has the shape the bench writes, with every section', () => {
    const json = benchJsonSchema.parse(JSON.parse(readFileSync(committed, 'utf8')))
    expect(Object.keys(json.sections).sort()).toEqual([
      'closing-hour',
      'discussion',
      'governance',
      'lighthouse',
      'names',
      'ranked-choice',
      'scale',
      'sign-in',
      'treasury',
      'web',
    ])
    expect(
      json.bundle &&
        json.pages &&
        json.references &&
        json.budget &&
        json.lighthouse &&
        json.signIn &&
        json.governance &&
        json.names &&
        json.scale &&
        json.treasury &&
        json.discussion &&
        json.rankedChoice &&
        json.closingHour,
    ).toBeTruthy()
  })

  test('the schema refuses a bench.json missing a figure', () => {
    const json = JSON.parse(readFileSync(committed, 'utf8'))
    delete json.pages.phone.fcp
    expect(benchJsonSchema.safeParse(json).success).toBe(false)
  })
})
