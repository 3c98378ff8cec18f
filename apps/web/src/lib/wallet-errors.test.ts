import { WALLET_ERROR_MESSAGES } from '@guildhall/core'
import {
  parseAbi,
  SocketClosedError,
  UserRejectedRequestError,
  WebSocketRequestError,
  zeroAddress,
} from 'viem'
import { getContractError } from 'viem/utils'
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

  test('behavior: the node\'s WebSocket closing under a request ("Socket is closed.") reaches the member as a sentence', () => {
    // As a contract read or write over a wss:// RPC fails when the socket closes under it.
    const url = 'wss://node.example/ws'
    const error = getContractError(
      new WebSocketRequestError({ url, cause: new SocketClosedError({ url }) }),
      {
        abi: parseAbi(['function delegates(address account) view returns (address)']),
        address: zeroAddress,
        args: [zeroAddress],
        functionName: 'delegates',
      },
    )
    expect(walletFailure(error, 'the delegation')).toBe(
      'The connection to the network was closed. Try again: the app opens a new one.',
    )
  })
})

describe('chainName', () => {
  test('default: the configured name, "chain <id>" for a chain the app does not know', () => {
    const chains = [{ id: 31337, name: 'Anvil' }]
    expect(chainName(chains, 31337)).toBe('Anvil')
    expect(chainName(chains, 5)).toBe('chain 5')
  })
})
