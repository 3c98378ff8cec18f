// "Execute": the Safe's execTransaction sent from the connected wallet, its progress, the recent-transactions
// entry and every failure as a sentence, as a delegation is followed (features/delegation/use-delegation.ts).
import {
  chainNotConfiguredMessage,
  DEFAULT_CONFIRMATIONS,
  type SafeConfirmation,
  type SafeTransactionJson,
  walletErrorMessage,
} from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { Address, Hash } from 'viem'
import { useAccount, useClient, useConfig } from 'wagmi'
import { walletFailure } from '../../../lib/wallet-errors.ts'
import { queueRecentTransaction } from '../../../wallet-kit/kit-bridge.ts'
import { proposalKeys } from '../queries/keys.ts'

const loadTransaction = () => import('./execute-transaction.ts')

/** Fetches the transaction code on the first sign that an execution is coming (ADR 014). */
const prefetchTransaction = () => void loadTransaction().catch(() => {})
export const onExecuteIntent = {
  onPointerEnter: prefetchTransaction,
  onFocus: prefetchTransaction,
  onTouchStart: prefetchTransaction,
}

/** Where the latest execution sent from this page stands. */
type ExecuteProgress =
  | { step: 'idle' }
  | { step: 'wallet' }
  | { step: 'pending'; hash: Hash }
  | { step: 'confirmed'; hash: Hash }
  | { step: 'reverted'; hash: Hash }
  | { step: 'cancelled'; hash: Hash }
  | { step: 'replaced'; hash: Hash }

const PROGRESS_TEXT: Record<ExecuteProgress['step'], string | null> = {
  idle: null,
  wallet: 'Confirm the execution in your wallet…',
  pending: 'Execution sent; waiting for it to be confirmed…',
  confirmed: 'Execution confirmed; waiting for the server to record it…',
  reverted: 'The execution failed: the transaction was reverted.',
  cancelled: 'The execution was cancelled in your wallet.',
  replaced: 'The execution was not made: your wallet sent another transaction in its place.',
}

export function useExecute({
  proposalId,
  title,
  chainId,
}: {
  proposalId: string
  title: string
  chainId: number | undefined
}) {
  const { address, connector } = useAccount()
  const client = useClient({ chainId })
  const wagmiConfig = useConfig()
  const queryClient = useQueryClient()
  const [progress, setProgress] = useState<ExecuteProgress>({ step: 'idle' })
  const [error, setError] = useState<string>()
  // Only the latest execution may update the state (an older wait can settle after a newer one started).
  const attempt = useRef(0)

  const execute = async (
    safe: Address,
    transaction: SafeTransactionJson,
    confirmations: readonly SafeConfirmation[],
  ) => {
    if (!address || chainId === undefined) return
    if (!client) {
      setError(chainNotConfiguredMessage(chainId, connector?.name))
      return
    }
    const self = ++attempt.current
    const update = (next: ExecuteProgress) => {
      if (attempt.current === self) setProgress(next)
    }
    setError(undefined)
    update({ step: 'wallet' })
    let hash: Hash
    let code: Awaited<ReturnType<typeof loadTransaction>>
    try {
      code = await loadTransaction()
      hash = await code.sendExecution(wagmiConfig, client, {
        safe,
        account: address,
        transaction,
        confirmations,
      })
    } catch (e) {
      if (attempt.current !== self) return
      setProgress({ step: 'idle' })
      setError(walletFailure(e, 'the execution'))
      return
    }
    queueRecentTransaction({ hash, description: `Execute “${title}”`, confirmations: DEFAULT_CONFIRMATIONS })
    update({ step: 'pending', hash })
    try {
      const end = await code.transactionEnd(client, hash)
      update({ step: end, hash })
      await queryClient.invalidateQueries({ queryKey: proposalKeys.execution(proposalId) })
    } catch (e) {
      if (attempt.current !== self) return
      setProgress({ step: 'idle' })
      setError(walletErrorMessage(e))
    }
  }

  return {
    progress,
    progressText: PROGRESS_TEXT[progress.step],
    busy: progress.step === 'wallet' || progress.step === 'pending',
    error,
    execute,
  }
}
