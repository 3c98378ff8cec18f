import { formatTokenAmount } from '@guildhall/core'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { type Address, zeroAddress } from 'viem'
import { useAccount } from 'wagmi'
import { Card, Stat } from '../../components/card.tsx'
import { MemberName } from '../../lib/names.tsx'
import { useTokenAccount, useTokenMetadata } from '../../lib/token.ts'

/** Whom the member delegates to, as the overview says it. */
function delegateOf(delegate: Address, self: Address): ReactNode {
  if (delegate === zeroAddress) return 'Not delegated'
  if (delegate === self) return 'Yourself'
  return <MemberName address={delegate} />
}

/** The connected member's balance, voting power and delegate, and the way to their member page. */
export function MyAccount() {
  const { address, isConnected } = useAccount()
  const { metadata } = useTokenMetadata()
  const { account, error } = useTokenAccount(address)
  if (!isConnected || !address) {
    return (
      <Card title="Your account" testId="my-account">
        <p className="muted">Connect a wallet to see your balance, voting power and delegate.</p>
      </Card>
    )
  }
  const amount = (value: bigint | undefined) =>
    value === undefined || !metadata
      ? undefined
      : `${formatTokenAmount(value, metadata.decimals)} ${metadata.symbol}`
  const delegate = account ? delegateOf(account.delegate, address) : undefined
  return (
    <Card title="Your account" testId="my-account">
      {error ? (
        <p role="alert">
          Your balance could not be read from the chain. Check that your wallet is on the DAO's network.
        </p>
      ) : (
        <dl className="stats">
          <Stat label="Balance" value={amount(account?.balance)} testId="my-balance" />
          <Stat label="Voting power" value={amount(account?.votes)} testId="my-votes" />
          <Stat label="Delegate" value={delegate} testId="my-delegate" />
        </dl>
      )}
      <p>
        <Link to={`/members/${address}`}>Your member page</Link>: your votes, your delegators and your
        delegate statement.
      </p>
    </Card>
  )
}
