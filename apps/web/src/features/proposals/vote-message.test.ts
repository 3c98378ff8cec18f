import { voteMessageSchema } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { buildVoteMessage } from './vote-message.ts'

const VOTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const PROPOSAL = `0x${'ab'.repeat(32)}`
const NOON = Date.UTC(2030, 0, 1, 12) // ms
const base = { voter: VOTER, proposal: PROPOSAL, picked: [1], reason: '', now: NOON } as const

describe('buildVoteMessage', () => {
  test('default: the picked choices in ascending order, the reason trimmed, the time in whole seconds', () => {
    const picked = [3, 1, 2]
    const vote = buildVoteMessage({ ...base, picked, reason: '  Because.\n', now: NOON + 999 })
    expect(vote).toEqual({
      voter: VOTER,
      proposal: PROPOSAL,
      choices: [1, 2, 3],
      reason: 'Because.',
      timestamp: NOON / 1000,
    })
    expect(picked).toEqual([3, 1, 2]) // the member's picks are not reordered in place
    expect(voteMessageSchema.safeParse(vote).success).toBe(true)
  })

  test('behavior: a re-vote within the same second as the vote it replaces gets a later timestamp', () => {
    const vote = buildVoteMessage({ ...base, replaces: { timestamp: NOON / 1000 }, now: NOON + 400 })
    expect(vote.timestamp).toBe(NOON / 1000 + 1)
  })

  test('behavior: a re-vote after a vote stamped ahead of this clock still comes later', () => {
    const vote = buildVoteMessage({ ...base, replaces: { timestamp: NOON / 1000 + 60 }, now: NOON })
    expect(vote.timestamp).toBe(NOON / 1000 + 61)
  })

  test('default: a re-vote later on takes the current time', () => {
    const vote = buildVoteMessage({ ...base, replaces: { timestamp: NOON / 1000 - 3600 }, now: NOON })
    expect(vote.timestamp).toBe(NOON / 1000)
  })
})
