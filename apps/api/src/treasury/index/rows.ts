// From a range's logs to history rows: each Safe event and Transfer in words, each execution decoded once
// (its native moves as rows of their own), and the rows of an execution's transaction tied to it.
import type { TreasuryHistoryKind } from '@guildhall/core'
import { type Address, getAddress, type Hash, type PublicClient } from 'viem'
import { decodeSafeTx, executionFields, type SafeTxFields } from './executions.ts'
import type { SafeLog, TreasuryLog } from './logs.ts'

/** One history row as treasury_events stores it. */
export type TreasuryRow = {
  block: number
  logIndex: number
  sub: number
  timestamp: number
  transactionHash: Hash | null
  kind: TreasuryHistoryKind
  /** +1 money in, −1 money out, 0 nothing moved. */
  sign: 1 | -1 | 0
  token: Address | null
  amount: bigint | null
  counterparty: Address | null
  detail: string
  safeTxHash: Hash | null
  safeNonce: number | null
}

const SETTINGS_EVENTS: Record<string, string> = {
  AddedOwner: 'owner',
  RemovedOwner: 'owner',
  EnabledModule: 'module',
  DisabledModule: 'module',
  ChangedGuard: 'guard',
  ChangedFallbackHandler: 'handler',
  ChangedModuleGuard: 'moduleGuard',
}

export type RowContext = {
  client: PublicClient
  chainId: number
  safe: Address
  /** The Safe's nonce before the range's first execution. */
  nonce: number
  times: Map<number, number>
}

/** The range's rows, and the Safe's nonce after it (each ExecutionSuccess or ExecutionFailure used one). */
export async function rowsOfLogs(
  logs: readonly TreasuryLog[],
  context: RowContext,
): Promise<{ rows: TreasuryRow[]; nonce: number }> {
  const { safe } = context
  let nonce = context.nonce
  const rows: TreasuryRow[] = []
  const timeOf = (block: number) => {
    const time = context.times.get(block)
    if (time === undefined) throw new Error(`treasury index: no time for block ${block}`)
    return time
  }
  const row = (
    log: TreasuryLog,
    fields: Partial<TreasuryRow> & Pick<TreasuryRow, 'kind' | 'detail'>,
  ): TreasuryRow => ({
    block: log.blockNumber,
    logIndex: log.logIndex,
    sub: 0,
    timestamp: timeOf(log.blockNumber),
    transactionHash: log.transactionHash,
    sign: 0,
    token: null,
    amount: null,
    counterparty: null,
    safeTxHash: null,
    safeNonce: null,
    ...fields,
  })
  // An L2 Safe logs each Safe transaction's fields (SafeMultiSigTransaction) just before executing it.
  let l2Fields: SafeTxFields | null = null

  for (const log of logs) {
    if (log.source === 'transfer') {
      if (log.from === log.to) continue
      const incoming = log.to === safe
      rows.push(
        row(log, {
          kind: incoming ? 'incoming' : 'outgoing',
          sign: incoming ? 1 : -1,
          token: log.token,
          amount: log.value,
          counterparty: incoming ? log.from : log.to,
          detail: incoming ? 'Received' : 'Sent',
        }),
      )
      continue
    }
    const args = log.args
    switch (log.eventName) {
      case 'SafeMultiSigTransaction':
        l2Fields = args as unknown as SafeTxFields
        break
      case 'SafeReceived':
        rows.push(
          row(log, {
            kind: 'incoming',
            sign: 1,
            amount: args.value as bigint,
            counterparty: getAddress(args.sender as Address),
            detail: 'Received',
          }),
        )
        break
      case 'ExecutionSuccess':
      case 'ExecutionFailure': {
        rows.push(...(await executionRows(log, nonce, l2Fields, context, row)))
        nonce += 1
        l2Fields = null
        break
      }
      case 'ExecutionFromModuleSuccess':
      case 'ExecutionFromModuleFailure':
        rows.push(
          row(log, {
            kind: log.eventName === 'ExecutionFromModuleSuccess' ? 'execution' : 'execution-failed',
            counterparty: getAddress(args.module as Address),
            detail: `Module ${getAddress(args.module as Address)} executed a transaction (its calls are not shown)`,
          }),
        )
        break
      case 'SafeSetup': {
        const owners = (args.owners as Address[]).map((owner) => getAddress(owner))
        rows.push(
          row(log, {
            kind: 'settings',
            detail: `SafeSetup ${args.threshold} of ${owners.length}: ${owners.join(', ')}`,
          }),
        )
        break
      }
      case 'ChangedThreshold':
        rows.push(row(log, { kind: 'settings', detail: `Threshold ${args.threshold}` }))
        break
      default: {
        const field = SETTINGS_EVENTS[log.eventName]
        if (field === undefined) break // ApproveHash, SignMsg, SafeModuleTransaction: no history row
        const address = getAddress(args[field] as Address)
        rows.push(
          row(log, { kind: 'settings', counterparty: address, detail: `${log.eventName} ${address}` }),
        )
      }
    }
  }
  return { rows: tieToExecutions(rows), nonce }
}

async function executionRows(
  log: SafeLog,
  nonce: number,
  l2Fields: SafeTxFields | null,
  context: RowContext,
  row: (log: TreasuryLog, fields: Partial<TreasuryRow> & Pick<TreasuryRow, 'kind' | 'detail'>) => TreasuryRow,
): Promise<TreasuryRow[]> {
  const success = log.eventName === 'ExecutionSuccess'
  const hash = log.args.txHash as Hash
  const found = await executionFields(context.client, {
    chainId: context.chainId,
    safe: context.safe,
    transactionHash: log.transactionHash,
    hash,
    nonce,
    l2Fields,
  })
  const decoded = found
    ? decodeSafeTx(context.safe, found.fields, {
        success,
        payment: log.args.payment as bigint,
        origin: found.origin,
      })
    : null
  const shared = { safeTxHash: hash, safeNonce: nonce }
  const detail = decoded
    ? decoded.detail
    : 'Its calls are not shown: the transaction was not sent to the Safe itself (a relayer or another contract)'
  return [
    row(log, { kind: success ? 'execution' : 'execution-failed', detail, ...shared }),
    ...(decoded?.moves ?? []).map((move, i) =>
      row(log, {
        sub: i + 1,
        kind: 'outgoing',
        sign: -1,
        amount: move.amount,
        counterparty: move.to,
        detail: move.detail,
        ...shared,
      }),
    ),
  ]
}

/** Rows logged in an execution's transaction before it (its transfers, the coin it received) carry its hash and nonce. */
function tieToExecutions(rows: TreasuryRow[]): TreasuryRow[] {
  const executions = rows.filter((r) => r.safeTxHash !== null && r.sub === 0)
  return rows.map((r) => {
    if (r.safeTxHash !== null) return r
    const execution = executions.find(
      (e) => e.transactionHash === r.transactionHash && e.block === r.block && e.logIndex > r.logIndex,
    )
    return execution ? { ...r, safeTxHash: execution.safeTxHash, safeNonce: execution.safeNonce } : r
  })
}
