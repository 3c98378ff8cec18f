import { checkSiwePolicy, parseSiweMessageStrict, signInStatement } from '@guildhall/core'
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, test } from 'vitest'
import { createGuildhallAuthenticationAdapter } from './authentication-adapter.ts'

const ADA = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
const DAO = 'Guildhall Test DAO'

function adapter(appUrl = 'http://127.0.0.1:4173') {
  return createGuildhallAuthenticationAdapter({
    appUrl,
    daoName: DAO,
    queryClient: new QueryClient(),
    isAvailable: () => true,
  })
}

describe('createMessage', () => {
  test('default: a fresh nonce gives, synchronously, a message the server policy accepts', () => {
    const message = adapter().createMessage({ nonce: 'abcdef1234567890', address: ADA, chainId: 31337 })
    expect(typeof message).toBe('string')
    const parsed = parseSiweMessageStrict(message as string)
    if (!parsed.ok) throw new Error(parsed.reason)
    expect(parsed.fields).toMatchObject({
      domain: '127.0.0.1:4173',
      uri: 'http://127.0.0.1:4173',
      statement: 'Sign in to Guildhall Test DAO.',
      chainId: 31337,
      nonce: 'abcdef1234567890',
      address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    })
    expect(parsed.fields.resources).toBeUndefined()
    const policy = checkSiwePolicy(parsed.fields, {
      domain: '127.0.0.1:4173',
      origin: 'http://127.0.0.1:4173',
      allowedChainIds: [31337],
      statement: signInStatement(DAO),
      nonce: 'abcdef1234567890',
      now: new Date(),
    })
    expect(policy).toEqual({ ok: true })
  })

  test('parameters: appUrl with a path still signs for the origin', () => {
    const message = adapter('https://dao.example/app/').createMessage({
      nonce: 'abcdef1234567890',
      address: ADA,
      chainId: 1,
    }) as string
    expect(message.startsWith('dao.example wants you to sign in')).toBe(true)
    expect(message).toContain('\nURI: https://dao.example\n')
  })
})
