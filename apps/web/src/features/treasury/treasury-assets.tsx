import type { TreasurySummary } from '@guildhall/core'
import { Card } from '../../components/card.tsx'
import { FullAddress } from '../../components/full-address.tsx'
import { treasuryAmount } from './token-amounts.ts'

/**
 * What the treasury holds, per token: the Safe's balance with the listed plain addresses', and its value
 * in a currency only where the operator configured a price feed for the token.
 */
export function TreasuryAssets({ summary }: { summary: TreasurySummary }) {
  const amount = treasuryAmount(summary.assets)
  return (
    <Card title="Assets" testId="treasury-assets">
      {summary.assets.length === 0 ? (
        <p className="muted">No tokens are listed.</p>
      ) : (
        <table className="treasury-table">
          <thead>
            <tr>
              <th scope="col">Token</th>
              <th scope="col">Balance</th>
              {summary.assets.some((asset) => asset.value) ? <th scope="col">Value</th> : null}
            </tr>
          </thead>
          <tbody>
            {summary.assets.map((asset) => (
              <tr key={asset.token ?? 'native'} data-testid="treasury-asset">
                <th scope="row">{asset.symbol}</th>
                <td>{amount(asset.token, asset.balance)}</td>
                {summary.assets.some((one) => one.value) ? (
                  <td>{asset.value ? `${asset.value.amount} ${asset.value.currency}` : '—'}</td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.addresses.length > 0 ? (
        <div className="muted treasury-addresses">
          With the Safe's, the balances of:
          <ul>
            {summary.addresses.map((address) => (
              <li key={address}>
                <FullAddress address={address} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  )
}
