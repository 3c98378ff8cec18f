import { WALLET_ERROR_MESSAGES } from '@guildhall/core'
import { UserRejectedRequestError } from 'viem'
import { describe, expect, test } from 'vitest'
import { chainName } from './chains.ts'
import { walletFailure } from './wallet-errors.ts'

describe('walletFailure', () => {
  test("behavior: a refusal in the wallet is the member's own choice, said as such; anything else, the wallet's reason", () => {
    const rejected = new UserRejectedRequestError(new Error('User denied'))
    expect(walletFailure(rejected, 'the signature')).toBe('You cancelled the signature in your wallet.')
    expect(walletFailure(rejected, 'the delegation')).toBe('You cancelled the delegation in your wallet.')
    expect(walletFailure(new Error('boom'), 'the signature')).not.toBe(WALLET_ERROR_MESSAGES.userRejected)
    expect(walletFailure(new Error('boom'), 'the signature')).not.toMatch(/^You cancelled/)
  })
})

describe('chainName', () => {
  test('default: the configured name, "chain <id>" for a chain the app does not know', () => {
    const chains = [{ id: 31337, name: 'Anvil' }]
    expect(chainName(chains, 31337)).toBe('Anvil')
    expect(chainName(chains, 5)).toBe('chain 5')
  })
})
