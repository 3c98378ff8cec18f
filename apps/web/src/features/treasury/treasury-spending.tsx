import { Card } from '../../components/card.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useTreasurySpending } from './queries/treasury-spending.ts'
import type { TreasuryAmount } from './token-amounts.ts'

/** What executed proposals paid out, per category (a proposal's, or none) and token, and what left outside Guildhall. */
export function TreasurySpending({ amount }: { amount: TreasuryAmount }) {
  const spending = useTreasurySpending()
  const rows = spending.data?.categories ?? []
  return (
    <Card title="Spending per category" testId="treasury-spending">
      {spending.error ? (
        <p role="alert">The spending could not be loaded. {describeRequestError(spending.error)}</p>
      ) : spending.isPending ? (
        <p className="muted">Loading the spending…</p>
      ) : rows.length === 0 ? (
        <p className="muted">No proposal has paid anything out yet.</p>
      ) : (
        <table className="treasury-table">
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Paid out</th>
              <th scope="col">Proposals</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.category ?? ''}-${row.token ?? 'native'}`} data-testid="treasury-spending-row">
                <th scope="row">
                  {row.category === null ? 'Outside Guildhall' : row.category || 'No category'}
                </th>
                <td>{amount(row.token, row.amount)}</td>
                <td>{row.proposals}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  )
}
