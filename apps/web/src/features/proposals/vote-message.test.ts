import { governanceDomain, LOCAL_CHAIN_ID, voteMessageSchema, voteTypedData } from '@guildhall/core'
import { serializeTypedData } from 'viem'
import { describe, expect, test } from 'vitest'
import { buildVoteMessage } from './vote-message.ts'

const VOTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const PROPOSAL = `0x${'ab'.repeat(32)}`
const NOON = Date.UTC(2030, 0, 1, 12) // ms
const base = {
  voter: VOTER,
  proposal: PROPOSAL,
  kind: 'approval',
  picked: [1],
  reason: '',
  now: NOON,
} as const

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

  test("default: a ranked-choice ballot keeps the member's order: the order is the ranking", () => {
    const vote = buildVoteMessage({ ...base, kind: 'ranked-choice', picked: [3, 1, 4, 2] })
    expect(vote).toEqual({
      voter: VOTER,
      proposal: PROPOSAL,
      choices: [3, 1, 4, 2],
      reason: '',
      timestamp: NOON / 1000,
    })
    expect(voteMessageSchema.safeParse(vote).success).toBe(true)
  })

  test('default: a single-choice or approval ballot is a version 1 vote, without weights', () => {
    for (const kind of ['basic', 'single-choice', 'approval'] as const) {
      const vote = buildVoteMessage({ ...base, kind, picked: [2] })
      expect(vote).not.toHaveProperty('weights')
      expect(vote).not.toHaveProperty('version')
    }
  })

  test.each(['weighted', 'quadratic'] as const)(
    'behavior: a %s ballot is a version 2 vote whose weights follow their choices in ascending order',
    (kind) => {
      const vote = buildVoteMessage({ ...base, kind, picked: [3, 1], weights: [60, 40] })
      expect(vote).toEqual({
        version: 2,
        voter: VOTER,
        proposal: PROPOSAL,
        choices: [1, 3],
        weights: [40, 60],
        reason: '',
        timestamp: NOON / 1000,
      })
      expect(voteMessageSchema.safeParse(vote).success).toBe(true)
    },
  )

  test('behavior: the typed data the wallet is asked to sign shows the weights as numbers (uint32[]), not a JSON string', () => {
    const vote = buildVoteMessage({ ...base, kind: 'weighted', picked: [1, 2, 3], weights: [5, 3, 2] })
    const domain = governanceDomain({ chainId: LOCAL_CHAIN_ID, token: VOTER })
    // What wagmi sends as eth_signTypedData_v4's second parameter: viem's serialisation of the typed data.
    const sent = JSON.parse(serializeTypedData(voteTypedData(domain, vote)))
    expect(sent.primaryType).toBe('Vote')
    expect(sent.types.Vote).toEqual([
      { name: 'voter', type: 'address' },
      { name: 'proposal', type: 'bytes32' },
      { name: 'choices', type: 'uint32[]' },
      { name: 'weights', type: 'uint32[]' },
      { name: 'reason', type: 'string' },
      { name: 'timestamp', type: 'uint64' },
    ])
    expect(sent.message.choices).toEqual([1, 2, 3])
    expect(sent.message.weights).toEqual([5, 3, 2])
  })
})
