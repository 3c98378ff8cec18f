import type { MemberProfile } from '@guildhall/core'
import { MemberName } from '../../../lib/names.tsx'
import { useTokenAmount } from '../../../lib/token.ts'

/**
 * Why a member who holds tokens has no voting power: public facts from their figures (balance and
 * delegate), so said to anyone, signed in or not. Worded for the member on their own page.
 */
export function ZeroPowerReason({
  member,
  own,
  name,
}: {
  member: MemberProfile
  own: boolean
  name: string
}) {
  const amount = useTokenAmount()
  // Self-delegated tokens are votes: a holder delegating to themself has power, so nothing to explain.
  if (BigInt(member.votes) > 0n || BigInt(member.balance) === 0n || member.delegate === member.address)
    return null
  const tokens = amount(member.balance)
  return (
    <p className="notice notice-info" data-testid="member-zero-power">
      {member.delegate === null ? (
        own ? (
          `You hold ${tokens} but have not delegated them, so they are nobody's votes: tokens become votes only when delegated. Delegate to yourself to vote with them on proposals created after that.`
        ) : (
          `${name} holds ${tokens} but has not delegated them, so they are nobody's votes: tokens become votes only when delegated, to their holder or to another member.`
        )
      ) : (
        <>
          {own ? `You delegate your ${tokens} to ` : `${name} delegates their ${tokens} to `}
          <MemberName address={member.delegate} />, who votes with them.
        </>
      )}
    </p>
  )
}
