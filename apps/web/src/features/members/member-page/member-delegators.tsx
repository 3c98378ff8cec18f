import type { Address } from 'viem'
import { Card } from '../../../components/card.tsx'
import { MorePages } from '../../../components/more-pages.tsx'
import { describeRequestError } from '../../../lib/api.ts'
import { MemberName } from '../../../lib/names.tsx'
import { useTokenAmount } from '../../../lib/token.ts'
import { useMemberDelegators } from '../queries/member-delegators.ts'

/** Who delegates to the member, most tokens first, a page at a time. */
export function MemberDelegators({ address }: { address: Address }) {
  const delegators = useMemberDelegators(address)
  const amount = useTokenAmount()
  const rows = delegators.data?.pages.flatMap((page) => page.delegators) ?? []
  return (
    <Card title="Delegators" testId="member-delegator-list">
      {delegators.isPending ? (
        <p className="muted">Loading the delegators…</p>
      ) : rows.length === 0 ? (
        delegators.error ? (
          <p role="alert">The delegators could not be loaded. {describeRequestError(delegators.error)}</p>
        ) : (
          <p className="muted">Nobody delegates to this member.</p>
        )
      ) : (
        <ol className="member-page-list">
          {rows.map((row) => (
            <li key={row.address} className="member-page-delegator" data-testid="member-delegator">
              <MemberName address={row.address} />
              <span>{amount(row.balance)}</span>
            </li>
          ))}
        </ol>
      )}
      <MorePages list={delegators} what="delegators" />
    </Card>
  )
}
