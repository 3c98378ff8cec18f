import {
  DEFAULT_CONFIRMATIONS,
  RECEIPT_RETRY_COUNT,
  receiptRetryDelay,
  shortenAddress,
  WALLET_ERROR_MESSAGES,
  walletErrorMessage,
} from '@guildhall/core'
import { useAddRecentTransaction } from '@rainbow-me/rainbowkit'
import { useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import { type Address, getAddress, isAddress, zeroAddress } from 'viem'
import {
  useAccount,
  usePublicClient,
  useSwitchChain,
  useWaitForTransactionReceipt,
  useWriteContract,
} from 'wagmi'
import { Card } from '../../components/card.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { useTokenAccount, useTokenContract } from '../../lib/token.ts'

const GAS_HEADROOM_PERCENT = 150n

/** Current delegate, "Delegate to myself" when undelegated, and delegation to any address. */
export function DelegationPanel() {
  const config = usePublicConfig()
  const token = useTokenContract()
  const { address, chainId, isConnected } = useAccount()
  const { account, queryKey } = useTokenAccount(address)
  const queryClient = useQueryClient()
  const addRecentTransaction = useAddRecentTransaction()
  const { switchChain, isPending: switching } = useSwitchChain()
  const publicClient = usePublicClient({ chainId: token?.chainId })
  const write = useWriteContract()
  const [hash, setHash] = useState<`0x${string}`>()
  const [error, setError] = useState<string>()
  const [target, setTarget] = useState('')
  const receipt = useWaitForTransactionReceipt({
    hash,
    chainId: token?.chainId,
    confirmations: DEFAULT_CONFIRMATIONS,
    retryCount: RECEIPT_RETRY_COUNT,
    retryDelay: receiptRetryDelay,
  })

  useEffect(() => {
    if (receipt.data) queryClient.invalidateQueries({ queryKey })
  }, [receipt.data, queryClient, queryKey])

  if (!token) return null
  if (!isConnected || !address) {
    return (
      <Card title="Delegation" testId="delegation">
        <p className="muted">Connect a wallet to delegate your voting power.</p>
      </Card>
    )
  }

  const chainName = config.chains.find((c) => c.id === token.chainId)?.name ?? `chain ${token.chainId}`
  if (chainId !== token.chainId) {
    return (
      <Card title="Delegation" testId="delegation">
        <p>The governance token lives on {chainName}. Switch networks to delegate.</p>
        <button
          type="button"
          className="button"
          disabled={switching}
          onClick={() => switchChain({ chainId: token.chainId })}
        >
          Switch to {chainName}
        </button>
      </Card>
    )
  }

  async function delegate(delegatee: Address, description: string) {
    setError(undefined)
    setHash(undefined)
    try {
      const call = { ...token!, functionName: 'delegate', args: [delegatee] } as const
      // Nodes estimate against the latest block; a vote checkpoint written in the next block costs more.
      const estimate = await publicClient!.estimateContractGas({ ...call, account: address })
      const sent = await write.writeContractAsync({ ...call, gas: (estimate * GAS_HEADROOM_PERCENT) / 100n })
      addRecentTransaction({ hash: sent, description, confirmations: DEFAULT_CONFIRMATIONS })
      setHash(sent)
    } catch (e) {
      const message = walletErrorMessage(e)
      setError(
        message === WALLET_ERROR_MESSAGES.userRejected
          ? 'You cancelled the delegation in your wallet.'
          : message,
      )
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

  const busy = write.isPending || (Boolean(hash) && receipt.isLoading)
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
            onChange={(event) => setTarget(event.target.value)}
          />
          <button type="submit" className="button" disabled={busy}>
            Delegate
          </button>
        </div>
      </form>
      <p className="status" role="status" data-testid="delegation-progress">
        {write.isPending
          ? 'Confirm the delegation in your wallet…'
          : hash && receipt.isLoading
            ? 'Delegation sent; waiting for it to be confirmed…'
            : receipt.data?.status === 'success'
              ? 'Delegation confirmed.'
              : receipt.data?.status === 'reverted'
                ? 'The delegation failed: the transaction was reverted.'
                : receipt.error
                  ? walletErrorMessage(receipt.error)
                  : null}
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </Card>
  )
}
