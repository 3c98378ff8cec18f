import type { Address } from 'viem'
import { describe, expect, test } from 'vitest'
import { buildSignInMessage, signInStatement } from './builder.ts'
import { isRfc3986Uri } from './grammar.ts'
import { DOMAIN, NONCE, NOW, ORIGIN, STATEMENT, signer } from './sign-in-test-helpers.ts'

describe('signInStatement and buildSignInMessage', () => {
  test('the statement is "Sign in to <DAO name>." reduced to the SIWE statement alphabet', () => {
    expect(signInStatement('Guildhall DAO')).toBe('Sign in to Guildhall DAO.')
    expect(signInStatement('Café "Crème" DAO')).toBe('Sign in to Cafe Creme DAO.')
    expect(signInStatement('日本')).toBe('Sign in.')
  })

  test('buildSignInMessage refuses a statement the grammar does not allow and an empty one', () => {
    const input = {
      address: signer.address,
      chainId: 31337,
      nonce: NONCE,
      domain: DOMAIN,
      origin: ORIGIN,
      statement: STATEMENT,
      issuedAt: new Date(NOW),
    }
    expect(() => buildSignInMessage({ ...input, statement: 'Sign in to Café.' })).toThrow(/printable ASCII/)
    expect(() => buildSignInMessage({ ...input, statement: '' })).toThrow()
    expect(() => buildSignInMessage({ ...input, nonce: undefined as unknown as string })).toThrow()
  })

  test('a lower-case address is written EIP-55 checksummed', () => {
    const message = buildSignInMessage({
      address: signer.address.toLowerCase() as Address,
      chainId: 31337,
      nonce: NONCE,
      domain: DOMAIN,
      origin: ORIGIN,
      statement: STATEMENT,
      issuedAt: new Date(NOW),
    })
    expect(message.split('\n')[1]).toBe(signer.address)
  })

  test('isRfc3986Uri follows RFC 3986', () => {
    for (const ok of [
      'https://a.b/c?d#e',
      'urn:isbn:0451450523',
      'https://[::1]:8080/',
      'ipfs://Qm1',
      'a:',
    ]) {
      expect(isRfc3986Uri(ok), ok).toBe(true)
    }
    for (const bad of [
      ':x',
      'https://a b',
      'https://a/%zz',
      'https://[::g]/',
      '1http://a',
      'https://a/#x#y',
    ]) {
      expect(isRfc3986Uri(bad), bad).toBe(false)
    }
  })
})
