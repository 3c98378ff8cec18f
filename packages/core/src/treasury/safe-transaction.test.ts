// The derived Safe transaction's shape and hashes; that they equal a real Safe's is proved on anvil
// (packages/devchain/src/safe-transaction.test.ts).
import { type Address, concat, concatHex, type Hex, keccak256, pad, zeroAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import type { ProposalMessageV2 } from '../governance/messages.ts'
import { proposal } from '../governance/messages-test-helpers.ts'
import type { ProposalAction } from './actions.ts'
import { decodeMultiSend, MULTI_SEND_CALL_ONLY, OPERATION_DELEGATE_CALL } from './multi-send.ts'
import {
  expectedSafeTransaction,
  packSafeSignatures,
  safeTransactionForActions,
  safeTransactionHashes,
} from './safe-transaction.ts'

const safe: Address = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'
const multiSend: Address = MULTI_SEND_CALL_ONLY['1.5.0'].address
const payment: ProposalAction = {
  target: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  value: '7',
  data: '0x',
}
const target = { chainId: 31337, safe, multiSend }
const v2: ProposalMessageV2 = {
  ...proposal,
  version: 2,
  category: '',
  changesSafeSettings: false,
  actions: [payment],
}

describe('safeTransactionForActions', () => {
  test('behavior: one action is still a MultiSendCallOnly batch: DELEGATECALL, no value, every gas and refund field zero', () => {
    const transaction = safeTransactionForActions({ actions: [payment], nonce: 4, multiSend })
    expect(transaction).toEqual({
      to: multiSend,
      value: 0n,
      data: transaction.data,
      operation: OPERATION_DELEGATE_CALL,
      safeTxGas: 0n,
      baseGas: 0n,
      gasPrice: 0n,
      gasToken: zeroAddress,
      refundReceiver: zeroAddress,
      nonce: 4n,
    })
    expect(decodeMultiSend(transaction.data)).toEqual([
      { operation: 0, to: payment.target, value: 7n, data: '0x' },
    ])
  })
})

describe('expectedSafeTransaction', () => {
  test("behavior: a version 2 proposal's actions at a nonce give the transaction and its hashes; none for version 1 or no actions", () => {
    const expected = expectedSafeTransaction(v2, 9n, target)
    const transaction = safeTransactionForActions({ actions: [payment], nonce: 9n, multiSend })
    expect(expected).toEqual({ transaction, ...safeTransactionHashes({ chainId: 31337, safe, transaction }) })
    expect(expected && keccak256(concatHex(['0x1901', expected.domainHash, expected.messageHash]))).toBe(
      expected?.safeTxHash,
    )
    expect(expectedSafeTransaction(proposal, 9n, target)).toBeNull()
    expect(expectedSafeTransaction({ ...v2, actions: [] }, 9n, target)).toBeNull()
  })

  test('behavior: another nonce, chain, Safe or MultiSendCallOnly gives another safeTxHash', () => {
    const hash = (nonce: bigint, t = target) => expectedSafeTransaction(v2, nonce, t)?.safeTxHash
    const all = [
      hash(9n),
      hash(10n),
      hash(9n, { ...target, chainId: 1 }),
      hash(9n, { ...target, safe: '0x0000000000000000000000000000000000000001' }),
      hash(9n, { ...target, multiSend: MULTI_SEND_CALL_ONLY['1.4.1'].address }),
    ]
    expect(new Set(all).size).toBe(all.length)
  })
})

test('behavior: execTransaction’s signatures are sorted by owner, an on-chain approval as {r: owner, s: 0, v: 1}', () => {
  // Listed high first, packed low first.
  const low: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
  const high: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  expect(BigInt(low) < BigInt(high)).toBe(true)
  const signature = `0x${'22'.repeat(64)}1b` as Hex
  expect(
    packSafeSignatures([
      { owner: high, signature },
      { owner: low, signature: null },
    ]),
  ).toBe(concat([pad(low), pad('0x', { size: 32 }), '0x01', signature]))
  // No confirmation at all is still hex (the Safe then refuses it on chain, not the encoder here).
  expect(packSafeSignatures([])).toBe('0x')
})
