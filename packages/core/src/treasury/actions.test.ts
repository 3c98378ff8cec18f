import { type Address, encodeFunctionData, maxUint256, parseAbi } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  actionProblems,
  actionWarnings,
  decodeAction,
  erc20ActionAbi,
  type ProposalAction,
  proposalActionSchema,
  safeSettingsAbi,
  UNLIMITED_APPROVAL_FLOOR,
} from './actions.ts'

const safe: Address = '0x5FC8d32690cc91D4c39d9d3abcBD16989F875707'
const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ben: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ghd = { address: token, symbol: 'GHD', decimals: 18 }

const transfer = (amount: bigint): ProposalAction => ({
  target: token,
  value: '0',
  data: encodeFunctionData({ abi: erc20ActionAbi, functionName: 'transfer', args: [ben, amount] }),
})
const approve = (amount: bigint): ProposalAction => ({
  target: token,
  value: '0',
  data: encodeFunctionData({ abi: erc20ActionAbi, functionName: 'approve', args: [ben, amount] }),
})
const payment: ProposalAction = { target: ben, value: '1000000000000000000', data: '0x' }
const addOwner: ProposalAction = {
  target: safe,
  value: '0',
  data: encodeFunctionData({ abi: safeSettingsAbi, functionName: 'addOwnerWithThreshold', args: [ben, 2n] }),
}

describe('proposalActionSchema', () => {
  test('behavior: a checksummed target, a uint256 of wei and whole bytes of data are taken', () => {
    expect(proposalActionSchema.parse(payment)).toEqual(payment)
    expect(proposalActionSchema.parse(transfer(5n))).toEqual(transfer(5n))
  })

  test.each([
    ['a target not checksummed', { ...payment, target: ben.toLowerCase() }, 'must be EIP-55 checksummed'],
    [
      'the zero address',
      { ...payment, target: '0x0000000000000000000000000000000000000000' },
      'The target must not be the zero address',
    ],
    [
      'a value in ETH',
      { ...payment, value: '1.5' },
      'must be a whole number of wei (1 ETH is 1000000000000000000), as a decimal string',
    ],
    ['a value past uint256', { ...payment, value: (maxUint256 + 1n).toString() }, 'must fit in uint256'],
    [
      'half a byte of data',
      { ...payment, data: '0xabc' },
      'The data must be 0x followed by whole bytes of hex',
    ],
    ['an operation field', { ...payment, operation: 1 }, 'Unrecognized key: "operation"'],
  ])('parameters: %s is refused with its message', (_name, action, message) => {
    const parsed = proposalActionSchema.safeParse(action)
    expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([message])
  })
})

describe('decodeAction', () => {
  test('behavior: a payment, an ERC-20 transfer and approval of a known token, a Safe settings change, an unknown call', () => {
    expect(decodeAction(payment, { safe })).toEqual({
      kind: 'eth-transfer',
      target: ben,
      value: payment.value,
      selector: null,
      functionName: null,
      args: null,
      token: null,
      counterparty: ben,
      amount: payment.value,
    })
    expect(decodeAction(transfer(5n), { knownTokens: [ghd], safe })).toMatchObject({
      kind: 'erc20-transfer',
      selector: '0xa9059cbb',
      functionName: 'transfer',
      args: [ben, '5'],
      token: ghd,
      counterparty: ben,
      amount: '5',
    })
    expect(decodeAction(approve(7n), { safe })).toMatchObject({
      kind: 'erc20-approve',
      token: null,
      counterparty: ben,
      amount: '7',
    })
    expect(decodeAction(addOwner, { safe })).toMatchObject({
      kind: 'safe-settings',
      functionName: 'addOwnerWithThreshold',
      args: [ben, '2'],
    })
    const abi = parseAbi(['function grant(address to, uint256[] amounts, bool vested)'])
    const call: ProposalAction = {
      target: ben,
      value: '3',
      data: encodeFunctionData({ abi, functionName: 'grant', args: [safe, [1n, 2n], true] }),
    }
    expect(decodeAction(call)).toMatchObject({ kind: 'call', functionName: null, args: null, value: '3' })
    expect(decodeAction(call, { abi })).toMatchObject({
      kind: 'call',
      functionName: 'grant',
      args: [safe, ['1', '2'], true],
    })
    // The decoded form is JSON as it is: nothing a JSON answer would lose.
    const decoded = decodeAction(call, { abi })
    expect(JSON.parse(JSON.stringify(decoded))).toEqual(decoded)
  })

  test('behavior: a call to the Safe is a settings change whatever it calls, even with another ABI', () => {
    expect(decodeAction({ target: safe, value: '0', data: '0x' }, { safe }).kind).toBe('safe-settings')
    expect(decodeAction(transfer(1n), { safe: token }).kind).toBe('safe-settings')
  })
})

describe('actionWarnings and actionProblems', () => {
  test('behavior: an unlimited approval is warned, a bounded one is not', () => {
    const context = { safe, changesSafeSettings: false }
    expect(actionWarnings([approve(maxUint256)], context)).toEqual([
      {
        index: 0,
        message: `Action 1 approves ${ben} to spend an unlimited amount of the token at ${token}, now and later.`,
      },
    ])
    expect(actionWarnings([payment, approve(UNLIMITED_APPROVAL_FLOOR)], context)).toHaveLength(1)
    expect(actionWarnings([approve(UNLIMITED_APPROVAL_FLOOR - 1n)], context)).toEqual([])
  })

  test('behavior: a call to the Safe without the flag is refused; with it, it is warned plainly', () => {
    expect(actionProblems([payment, addOwner], { safe, changesSafeSettings: false })).toEqual([
      {
        index: 1,
        message:
          "Action 2 calls the treasury Safe itself, which changes its settings; only a proposal marked as changing the Safe's settings may do that.",
      },
    ])
    expect(actionProblems([payment, addOwner], { safe, changesSafeSettings: true })).toEqual([])
    expect(actionWarnings([payment, addOwner], { safe, changesSafeSettings: true })).toEqual([
      {
        index: 1,
        message:
          "Action 2 changes the Safe's own settings (addOwnerWithThreshold): who owns the treasury, how many must sign, or what else may move its funds.",
      },
    ])
  })

  test('behavior: the flag without any call to the Safe is refused, so the flag always means something', () => {
    expect(actionProblems([payment], { safe, changesSafeSettings: true })).toEqual([
      {
        index: null,
        message: `This proposal is marked as changing the Safe's settings, but none of its actions calls the treasury Safe ${safe}.`,
      },
    ])
    expect(actionProblems([payment, transfer(1n)], { safe, changesSafeSettings: false })).toEqual([])
  })
})
