// The one delegation flow, for the Overview's panel and "Delegate to …" anywhere: what stands in the way
// (no token, no wallet, another network), the wallet's transaction, its progress, the recent-transactions
// entry and the errors as sentences.

import type { NameAnswer } from '@guildhall/core'
import {
  chainNotConfiguredMessage,
  DEFAULT_CONFIRMATIONS,
  shortenAddress,
  walletErrorMessage,
} from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { Address, Hash } from 'viem'
import { useAccount, useClient, useConfig } from 'wagmi'
import { nameQueryKey } from '../../lib/names.tsx'
import { useTokenAccount, useTokenContract } from '../../lib/token.ts'
import { walletFailure } from '../../lib/wallet-errors.ts'
import { queueRecentTransaction } from '../../wallet-kit/kit-bridge.ts'

const loadTransaction = () => import('./delegation-transaction.ts')

/**
 * Fetches the transaction code on the first sign that a delegation is coming (pointer over, focus, touch
 * on a delegation control), so a press does not wait for it and a member who only reads never loads it
 * (ADR 014). A failed fetch is retried by the press itself.
 */
const prefetchTransaction = () => void loadTransaction().catch(() => {})
export const onDelegationIntent = {
  onPointerEnter: prefetchTransaction,
  onFocus: prefetchTransaction,
  onTouchStart: prefetchTransaction,
}

/** Where the latest delegation stands. */
type Progress =
  | { step: 'idle' }
  | { step: 'wallet' }
  | { step: 'pending'; hash: Hash }
  | { step: 'confirmed'; hash: Hash }
  | { step: 'reverted'; hash: Hash }
  | { step: 'cancelled'; hash: Hash }
  | { step: 'replaced'; hash: Hash }

const PROGRESS_TEXT: Record<Progress['step'], string | null> = {
  idle: null,
  wallet: 'Confirm the delegation in your wallet…',
  pending: 'Delegation sent; waiting for it to be confirmed…',
  confirmed: 'Delegation confirmed.',
  reverted: 'The delegation failed: the transaction was reverted.',
  cancelled: 'The delegation was cancelled in your wallet.',
  replaced: 'The delegation was not made: your wallet sent another transaction in its place.',
}

/**
 * What stands before a delegation: `none` without a governance token (nothing to show), `connect` without
 * a wallet, `switch-chain` with the wallet on another network than the token's, `ready` otherwise.
 */
export type DelegationGate = 'none' | 'connect' | 'switch-chain' | 'ready'

/** The recent-transactions entry: "Delegate to myself", to the delegate's name, else their short address. */
function delegationDescription(delegatee: Address, self: Address, name: string | null | undefined) {
  if (delegatee === self) return 'Delegate to myself'
  return `Delegate to ${name ?? shortenAddress(delegatee)}`
}

export function useDelegation({ onConfirmed }: { onConfirmed?: () => void } = {}) {
  const token = useTokenContract()
  const { address, chainId, connector, isConnected } = useAccount()
  const { account, queryKey } = useTokenAccount(address)
  const queryClient = useQueryClient()
  // The bare client with viem's tree-shakable actions: usePublicClient's would bring every public action
  // (≈ 37 KiB gzip, ENS and signature checks included) into the first page's JavaScript.
  const client = useClient({ chainId: token?.chainId })
  const wagmiConfig = useConfig()
  const [progress, setProgress] = useState<Progress>({ step: 'idle' })
  const [error, setError] = useState<string>()
  // Only the latest delegation may update the state (an older wait can settle after a newer one started).
  const attempt = useRef(0)

  const gate: DelegationGate = !token
    ? 'none'
    : !isConnected || !address
      ? 'connect'
      : chainId !== token.chainId
        ? 'switch-chain'
        : 'ready'

  /** Sends `delegate(delegatee)`; `name` is the delegate's, when the caller knows it better than the cache. */
  const delegate = async (delegatee: Address, name?: string | null) => {
    if (gate !== 'ready' || !token || !address) return
    if (!client) {
      setError(chainNotConfiguredMessage(token.chainId, connector?.name))
      return
    }
    const known = name ?? queryClient.getQueryData<NameAnswer>(nameQueryKey(delegatee))?.name
    const description = delegationDescription(delegatee, address, known)
    const self = ++attempt.current
    const update = (next: Progress) => {
      if (attempt.current === self) setProgress(next)
    }
    setError(undefined)
    update({ step: 'wallet' })
    let hash: Hash
    let transaction: Awaited<ReturnType<typeof loadTransaction>>
    try {
      transaction = await loadTransaction()
      hash = await transaction.sendDelegation(wagmiConfig, client, token, address, delegatee)
    } catch (e) {
      if (attempt.current !== self) return
      setProgress({ step: 'idle' })
      setError(walletFailure(e, 'the delegation'))
      return
    }
    queueRecentTransaction({ hash, description, confirmations: DEFAULT_CONFIRMATIONS })
    update({ step: 'pending', hash })
    try {
      const end = await transaction.transactionEnd(client, hash)
      update({ step: end, hash })
      // Whatever was mined in its place may have changed the account too.
      if (end !== 'reverted') await queryClient.invalidateQueries({ queryKey })
      if (end === 'confirmed') onConfirmed?.()
    } catch (e) {
      if (attempt.current !== self) return
      setProgress({ step: 'idle' })
      setError(walletErrorMessage(e))
    }
  }

  return {
    gate,
    /** The connected account. */
    address,
    /** Whom the connected account delegates to (the zero address: nobody); undefined while unread. */
    currentDelegate: account?.delegate,
    progressText: PROGRESS_TEXT[progress.step],
    busy: progress.step === 'wallet' || progress.step === 'pending',
    error,
    /**
     * Shows a sentence in place of the delegation's outcome (the caller's own checks), or clears it: one
     * outcome at a time, so a new attempt (typing, a refused form) takes the previous one's place. A
     * delegation still on its way keeps its progress.
     */
    setError: (text: string | undefined) => {
      setProgress((now) => (now.step === 'wallet' || now.step === 'pending' ? now : { step: 'idle' }))
      setError(text)
    },
    delegate,
  }
}
