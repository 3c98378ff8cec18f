import type { TreasuryCharts as Charts, TreasuryAsset } from '@guildhall/core'
import { useState } from 'react'
import { Card } from '../../components/card.tsx'
import { BarChart } from '../../components/charts/bar-chart.tsx'
import { chartWhen } from '../../components/charts/chart-date.tsx'
import { StepChart } from '../../components/charts/step-chart.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { tokenParam } from './queries/keys.ts'
import { useTreasuryCharts } from './queries/treasury-charts.ts'
import type { TreasuryAmount } from './token-amounts.ts'

/** "2026-11" as "Nov 2026". */
const monthName = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  })

/** One token's balance over time and money in and out per month, the token chosen from the assets. */
export function TreasuryCharts({ assets, amount }: { assets: TreasuryAsset[]; amount: TreasuryAmount }) {
  const [token, setToken] = useState(tokenParam(assets[0]?.token ?? null))
  const charts = useTreasuryCharts(token)
  return (
    <Card title="Over time" testId="treasury-charts">
      <div className="form treasury-chart-token">
        <label>
          <span>Charts of</span>
          <select value={token} onChange={(event) => setToken(event.target.value)}>
            {assets.map((asset) => (
              <option key={asset.token ?? 'native'} value={tokenParam(asset.token)}>
                {asset.symbol}
              </option>
            ))}
          </select>
        </label>
      </div>
      {charts.error ? (
        <p role="alert">The charts could not be loaded. {describeRequestError(charts.error)}</p>
      ) : charts.isPending ? (
        <p className="muted">Loading the charts…</p>
      ) : (
        <div className="treasury-charts" aria-busy={charts.isPlaceholderData}>
          <BalanceChart charts={charts.data} amount={amount} />
          <FlowsChart charts={charts.data} amount={amount} />
        </div>
      )}
    </Card>
  )
}

function BalanceChart({ charts, amount }: { charts: Charts; amount: TreasuryAmount }) {
  const { balance, token } = charts
  const first = balance[0]
  const last = balance.at(-1)
  const format = (value: string | bigint) => amount(token, value)
  return (
    <section aria-label="Balance over time">
      <h3>Balance over time</h3>
      {!first || !last ? (
        <p className="muted">No balance recorded yet.</p>
      ) : (
        <StepChart
          title="Balance over time"
          testId="treasury-balance-chart"
          points={balance.map((point) => ({ at: point.timestamp, value: BigInt(point.balance) }))}
          end={last.timestamp}
          format={format}
          summary={`From ${chartWhen(first.timestamp, last.timestamp - first.timestamp)} to ${chartWhen(last.timestamp, last.timestamp - first.timestamp)}: the balance went from ${format(first.balance)} to ${format(last.balance)}; ${balance.length} ${balance.length === 1 ? 'day' : 'days'}.`}
          table={
            <table className="chart-table">
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Balance</th>
                </tr>
              </thead>
              <tbody>
                {balance.map((point) => (
                  <tr key={point.timestamp}>
                    <td>
                      <time dateTime={new Date(point.timestamp * 1000).toISOString()}>
                        {chartWhen(point.timestamp, last.timestamp - first.timestamp)}
                      </time>
                    </td>
                    <td>{format(point.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      )}
    </section>
  )
}

function FlowsChart({ charts, amount }: { charts: Charts; amount: TreasuryAmount }) {
  const { flows, token } = charts
  const format = (value: string | bigint) => amount(token, value)
  const totalIn = flows.reduce((sum, month) => sum + BigInt(month.incoming), 0n)
  const totalOut = flows.reduce((sum, month) => sum + BigInt(month.outgoing), 0n)
  const first = flows[0]
  const last = flows.at(-1)
  return (
    <section aria-label="Money in and out per month">
      <h3>Money in and out per month</h3>
      {!first || !last ? (
        <p className="muted">Nothing has come in or gone out yet.</p>
      ) : (
        <BarChart
          title="Money in and out per month"
          testId="treasury-flows-chart"
          series={[
            { name: 'In', className: 'chart-series-in' },
            { name: 'Out', className: 'chart-series-out' },
          ]}
          groups={flows.map((month) => ({
            key: month.month,
            label: monthName(month.month),
            values: [BigInt(month.incoming), BigInt(month.outgoing)],
          }))}
          format={format}
          summary={`${first === last ? `In ${monthName(first.month)}` : `From ${monthName(first.month)} to ${monthName(last.month)}`}: ${format(totalIn)} came in and ${format(totalOut)} went out.`}
          table={
            <table className="chart-table">
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">In</th>
                  <th scope="col">Out</th>
                </tr>
              </thead>
              <tbody>
                {flows.map((month) => (
                  <tr key={month.month}>
                    <td>{monthName(month.month)}</td>
                    <td>{format(month.incoming)}</td>
                    <td>{format(month.outgoing)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      )}
    </section>
  )
}
