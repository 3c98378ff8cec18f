// MODERATORS and DISCUSSION_FLAGS_TO_HIDE (moderation.ts): who moderates, and how many flags hide a comment.
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { ADA, BEN, base, envError } from './env-test-helpers.ts'

describe('parseEnv: MODERATORS and DISCUSSION_FLAGS_TO_HIDE', () => {
  const local = { ...base, CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545' }

  test('default: no moderators and 3 flags; a list is checksummed and trimmed, and the public config names it', () => {
    const none = parseEnv(local)
    expect(none.moderation).toEqual({ moderators: [], flagsToHide: 3 })
    expect(none.publicConfig.discussion.moderators).toEqual([])
    const two = parseEnv({
      ...local,
      MODERATORS: ` ${ADA.toLowerCase()} ,${BEN}`,
      DISCUSSION_FLAGS_TO_HIDE: '5',
    })
    expect(two.moderation).toEqual({ moderators: [ADA, BEN], flagsToHide: 5 })
    expect(two.publicConfig.discussion.moderators).toEqual([ADA, BEN])
  })

  test('parameters: a moderator that is not an address, one listed twice, or a threshold below 1 is refused by name', () => {
    expect(envError({ ...local, MODERATORS: `${ADA},ada.eth` }).message).toContain(
      '- MODERATORS.1: must be a 0x-prefixed 20-byte address',
    )
    expect(envError({ ...local, MODERATORS: `${ADA},${ADA.toLowerCase()}` }).message).toContain(
      '- MODERATORS: lists a moderator twice',
    )
    expect(envError({ ...local, DISCUSSION_FLAGS_TO_HIDE: '0' }).message).toContain(
      '- DISCUSSION_FLAGS_TO_HIDE:',
    )
  })
})
