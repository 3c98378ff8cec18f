// The simulation of a batch of actions as the treasury Safe would run it (POST /api/treasury/simulate, and
// before queueing): an eth_call without signatures, and the balance changes its ERC-20 transfers and ETH
// values make. The changes are derived from the decoded actions, not traced (state-diff tracing is not
// available on every RPC): a call that moves funds another way shows none.
import {
  decodeAction,
  OPERATION_DELEGATE_CALL,
  type ProposalAction,
  type Simulation,
  safeTransactionForActions,
} from '@guildhall/core'
import { type Address, getAddress } from 'viem'
import { chainRead } from '../governance/deps.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { ExecutionDeps } from './deps.ts'
import { multiSendFor, SimulationUnavailableError, simulateAsSafe } from './safe-chain.ts'

/** What each account gains (positive) or loses, per token (null: the native coin), in first-seen order. */
function balanceChanges(safe: Address, actions: readonly ProposalAction[]): Simulation['balanceChanges'] {
  const deltas = new Map<string, { token: Address | null; account: Address; delta: bigint }>()
  const move = (token: Address | null, account: Address, amount: bigint) => {
    const key = `${token ?? 'native'} ${account.toLowerCase()}`
    const entry = deltas.get(key) ?? { token, account: getAddress(account), delta: 0n }
    entry.delta += amount
    deltas.set(key, entry)
  }
  for (const action of actions) {
    const value = BigInt(action.value)
    if (value > 0n) {
      move(null, safe, -value)
      move(null, action.target, value)
    }
    const decoded = decodeAction(action, { safe })
    if (decoded.kind === 'erc20-transfer' && decoded.counterparty && decoded.amount) {
      const amount = BigInt(decoded.amount)
      move(action.target, safe, -amount)
      move(action.target, decoded.counterparty, amount)
    }
  }
  return [...deltas.values()]
    .filter((entry) => entry.delta !== 0n)
    .map((entry) => ({ token: entry.token, account: entry.account, delta: String(entry.delta) }))
}

/** Runs `actions` as the treasury Safe's batch (MultiSendCallOnly, no signatures); nothing changes on chain. */
export async function simulateActions(
  deps: ExecutionDeps,
  actions: readonly ProposalAction[],
): Promise<Simulation> {
  const safe = deps.safe
  if (!safe)
    throw new ApiError(
      409,
      'no_treasury',
      'This DAO has no treasury Safe configured (TREASURY_SAFE), so nothing can be simulated.',
    )
  const { client } = deps.governance
  return chainRead(async () => {
    const multiSend = await multiSendFor(client, safe)
    if (!multiSend)
      throw new ApiError(
        409,
        'no_multisend',
        'The canonical MultiSendCallOnly for this Safe’s version is not deployed on this chain, so its batch cannot run.',
      )
    const transaction = safeTransactionForActions({ actions, nonce: 0, multiSend })
    const result = await simulateAsSafe(client, safe, {
      to: transaction.to,
      value: transaction.value,
      data: transaction.data,
      operation: OPERATION_DELEGATE_CALL,
    }).catch((error: unknown) => {
      if (error instanceof SimulationUnavailableError)
        throw new ApiError(409, 'simulation_unavailable', error.message)
      throw error
    })
    return {
      success: result.success,
      revert: result.revert,
      gasUsed: String(result.gasUsed),
      balanceChanges: balanceChanges(safe, actions),
    }
  })
}
