import { describe, expect, test } from 'vitest'
import { publicChainSchema } from './config.ts'
import { BASIC_CHOICES, proposalMessageSchema, voteChoicesSchema } from './governance/messages.ts'
import type { z } from './zod.ts'

/** The issues of a failed parse as `path: message`. */
function issues(schema: z.ZodMiniType, value: unknown): string[] {
  return (schema.safeParse(value).error?.issues ?? []).map(
    (issue) => `${issue.path.join('.')}: ${issue.message}`,
  )
}

const proposal = {
  author: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  title: 'Fund the hall',
  body: 'Body',
  kind: 'basic',
  choices: [...BASIC_CHOICES],
  start: 1_800_000_000,
  end: 1_800_000_000 + 7 * 24 * 3600,
  snapshot: 120,
  quorum: '1000000000000000000000',
  threshold: '1000000000000000000',
  abstainCountsToQuorum: true,
  timestamp: 1_799_999_000,
}

describe('core zod (zod/mini with the English locale)', () => {
  test('messages no schema sets read in English, as classic zod wrote them', () => {
    expect(
      issues(publicChainSchema, { id: 1.5, name: 'a'.repeat(65), rpcUrl: 'not a url', testnet: 'no' }),
    ).toEqual([
      'id: Invalid input: expected int, received number',
      'name: Too big: expected string to have <=64 characters',
      'rpcUrl: Invalid URL',
      'testnet: Invalid input: expected boolean, received string',
    ])
  })

  test("an integer check's own message is for fractions; a number's for anything else", () => {
    expect(issues(proposalMessageSchema, { ...proposal, timestamp: 1.5 })).toEqual([
      'timestamp: must be whole seconds',
    ])
    expect(issues(proposalMessageSchema, { ...proposal, timestamp: 'soon' })).toEqual([
      'timestamp: Invalid input: expected number, received string',
    ])
    expect(issues(voteChoicesSchema, ['1', 1.5])).toEqual([
      '0: Each choice must be a number',
      '1: Each choice must be a whole number',
    ])
  })

  test('core schemas are zod/mini: no classic methods, so the browser bundles no classic zod', () => {
    expect('refine' in publicChainSchema).toBe(false)
    expect('toJSONSchema' in proposalMessageSchema).toBe(false)
  })
})
