import { describe, expect, test } from 'vitest'
import { ApiRequestError } from '../../lib/api.ts'
import { deriveSignInState } from './sign-in-state.ts'

const ADA = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BEN = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const session = { address: ADA, chainId: 31337, expiresAt: '2030-01-01T00:00:00.000Z' } as const

describe('deriveSignInState', () => {
  test('behavior: with no wallet connected or reconnecting, an unanswered session is "unauthenticated", never "loading"', () => {
    expect(deriveSignInState({ data: undefined, error: null }, undefined, true).status).toBe(
      'unauthenticated',
    )
    expect(deriveSignInState({ data: undefined, error: null }, undefined, false).status).toBe('loading')
  })

  test('behavior: loading only while the first answer is outstanding', () => {
    expect(deriveSignInState({ data: undefined, error: null }, ADA).status).toBe('loading')
  })

  test('behavior: a session for the connected address is authenticated (address case does not matter)', () => {
    expect(deriveSignInState({ data: { session }, error: null }, ADA.toLowerCase())).toEqual({
      status: 'authenticated',
      session,
      foreignSession: false,
    })
  })

  test('behavior: no session is unauthenticated', () => {
    expect(deriveSignInState({ data: { session: null }, error: null }, ADA).status).toBe('unauthenticated')
  })

  test("behavior: another address's session is unauthenticated and flagged to be ended", () => {
    expect(deriveSignInState({ data: { session }, error: null }, BEN)).toMatchObject({
      status: 'unauthenticated',
      session: null,
      foreignSession: true,
    })
  })

  test('behavior: a session with no wallet connected stays authenticated (RainbowKit shows disconnected)', () => {
    expect(deriveSignInState({ data: { session }, error: null }, undefined).status).toBe('authenticated')
  })

  test('behavior: an unreachable server on the first check is unauthenticated', () => {
    const state = deriveSignInState({ data: undefined, error: new ApiRequestError(0, 'down') }, ADA)
    expect(state).toEqual({ status: 'unauthenticated', session: null, foreignSession: false })
  })

  test('behavior: a failed refetch keeps the last known session', () => {
    const state = deriveSignInState({ data: { session }, error: new ApiRequestError(0, 'down') }, ADA)
    expect(state.status).toBe('authenticated')
  })
})
