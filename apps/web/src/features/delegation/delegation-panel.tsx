import {
  DEFAULT_CONFIRMATIONS,
  shortenAddress,
  WALLET_ERROR_MESSAGES,
  walletErrorMessage,
} from '@guildhall/core'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useRef, useState } from 'react'
import { type Address, getAddress, type Hash, isAddress, zeroAddress } from 'viem'
import { useAccount, useClient, useConfig } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { chainName } from '../../lib/chains.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { useTokenAccount, useTokenContract } from '../../lib/token.ts'
import { walletFailure } from '../../lib/wallet-errors.ts'
import { queueRecentTransaction } from '../../wallet-kit/kit-bridge.ts'

const loadTransaction = () => import('./delegation-transaction.ts')

/**
 * Fetches the transaction code on the first sign that a delegation is coming (pointer over, focus, touch
 * on the panel's controls), so a press does not wait for it and a member who only reads the Overview
 * never loads it (ADR 014). A failed fetch is retried by the press itself.
 */
const prefetchTransaction = () => void loadTransaction().catch(() => {})
const onIntent = {
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

const PROGRESS_TEXT: Record<Progress['step'], string | null> = {
  idle: null,
  wallet: 'Confirm the delegation in your wallet…',
  pending: 'Delegation sent; waiting for it to be confirmed…',
  confirmed: 'Delegation confirmed.',
  reverted: 'The delegation failed: the transaction was reverted.',
}

/** Current delegate, "Delegate to myself" when undelegated, and delegation to any address. */
export function DelegationPanel() {
  const config = usePublicConfig()
  const token = useTokenContract()
  const { address, chainId, isConnected } = useAccount()
  const { account, queryKey } = useTokenAccount(address)
  const queryClient = useQueryClient()
  // The bare client with viem's tree-shakable actions: usePublicClient's would bring every public action
  // (≈ 37 KiB gzip, ENS and signature checks included) into the first page's JavaScript.
  const client = useClient({ chainId: token?.chainId })
  const wagmiConfig = useConfig()
  const [progress, setProgress] = useState<Progress>({ step: 'idle' })
  const [error, setError] = useState<string>()
  const [target, setTarget] = useState('')
  // Only the latest delegation may update the panel (an older wait can settle after a newer one started).
  const attempt = useRef(0)

  if (!token) return null
  if (!isConnected || !address) {
    return (
      <Card title="Delegation" testId="delegation">
        <p className="muted">Connect a wallet to delegate your voting power.</p>
      </Card>
    )
  }

  if (chainId !== token.chainId) {
    return (
      <Card title="Delegation" testId="delegation">
        <p>
          The governance token lives on {chainName(config.chains, token.chainId)}. Switch networks to
          delegate.
        </p>
        <SwitchChainButton />
      </Card>
    )
  }

  const delegate = async (delegatee: Address, description: string) => {
    if (!client) {
      setError(WALLET_ERROR_MESSAGES.chainNotConfigured)
      return
    }
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
      const confirmed = await transaction.delegationConfirmed(client, hash)
      update({ step: confirmed ? 'confirmed' : 'reverted', hash })
      if (confirmed) await queryClient.invalidateQueries({ queryKey })
    } catch (e) {
      if (attempt.current !== self) return
      setProgress({ step: 'idle' })
      setError(walletErrorMessage(e))
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    const value = target.trim()
    if (!isAddress(value, { strict: false })) {
      setError('Enter an address: 0x followed by 40 hexadecimal characters.')
      return
    }
    const delegatee = getAddress(value)
    void delegate(
      delegatee,
      delegatee === address ? 'Delegate to myself' : `Delegate to ${shortenAddress(delegatee)}`,
    )
  }

  const busy = progress.step === 'wallet' || progress.step === 'pending'
  const current = account?.delegate
  return (
    <Card title="Delegation" testId="delegation">
      {current === undefined ? (
        <p className="muted">Reading your delegate…</p>
      ) : current === zeroAddress ? (
        <>
          <p data-testid="delegate-status">
            You have not delegated. Your tokens do not count as votes until you delegate them, to yourself or
            to someone you trust.
          </p>
          <button
            type="button"
            className="button primary"
            disabled={busy}
            {...onIntent}
            onClick={() => delegate(address, 'Delegate to myself')}
          >
            Delegate to myself
          </button>
        </>
      ) : (
        <p data-testid="delegate-status">
          {current === address ? (
            'You vote with your own tokens.'
          ) : (
            <>
              You delegate your votes to <code title={current}>{shortenAddress(current)}</code>.
            </>
          )}
        </p>
      )}
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <label htmlFor="delegatee">Delegate to another address</label>
        <div className="row">
          <input
            id="delegatee"
            name="delegatee"
            placeholder="0x…"
            autoComplete="off"
            spellCheck={false}
            value={target}
            {...onIntent}
            onChange={(event) => setTarget(event.target.value)}
          />
          <button type="submit" className="button" disabled={busy} {...onIntent}>
            Delegate
          </button>
        </div>
      </form>
      <p className="status" role="status" data-testid="delegation-progress">
        {PROGRESS_TEXT[progress.step]}
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </Card>
  )
}
