// DISCUSSION_CATEGORIES and DISCUSSION_POSTERS (discussion.ts): a topic's categories and who may post, as the
// web app learns them too, with the limits and reactions its forms state.
import { DISCUSSION_LIMITS, REACTIONS } from '@guildhall/core'
import { describe, expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { envError } from './env-test-helpers.ts'

describe('parseEnv: DISCUSSION_CATEGORIES, DISCUSSION_POSTERS', () => {
  const local = { CHAIN_IDS: '31337', RPC_URL_31337: 'http://127.0.0.1:8545', WALLETS: 'injected' }

  test('default: Ideas, Questions, General; members post; the public config carries them with the limits and reactions', () => {
    const settings = parseEnv(local)
    expect(settings.discussion).toEqual({
      categories: ['Ideas', 'Questions', 'General'],
      posters: 'members',
      rateLimitPerMinute: 120,
    })
    expect(settings.publicConfig.discussion).toEqual({
      categories: ['Ideas', 'Questions', 'General'],
      posters: 'members',
      limits: { ...DISCUSSION_LIMITS },
      reactions: [...REACTIONS],
      moderators: [],
    })
    const own = parseEnv({
      ...local,
      DISCUSSION_CATEGORIES: ' Ideas ,Treasury,, Events',
      DISCUSSION_POSTERS: 'signed-in',
    })
    expect(own.publicConfig.discussion).toMatchObject({
      categories: ['Ideas', 'Treasury', 'Events'],
      posters: 'signed-in',
    })
  })

  test('parameters: no category, a name over 40 characters, one listed twice or an unknown poster rule is refused by name', () => {
    expect(envError({ ...local, DISCUSSION_CATEGORIES: ' , ' }).message).toContain(
      '- DISCUSSION_CATEGORIES: must name at least one category',
    )
    expect(envError({ ...local, DISCUSSION_CATEGORIES: `Ideas,${'x'.repeat(41)}` }).message).toContain(
      '- DISCUSSION_CATEGORIES.1: must be at most 40 characters',
    )
    expect(envError({ ...local, DISCUSSION_CATEGORIES: 'Ideas,Ideas' }).message).toContain(
      '- DISCUSSION_CATEGORIES: lists a category twice',
    )
    expect(envError({ ...local, DISCUSSION_POSTERS: 'everyone' }).message).toContain('- DISCUSSION_POSTERS')
  })
})
