import type { TreasurySummary } from '@guildhall/core'
import { describeRequestError } from '../../lib/api.ts'
import { useTreasurySummary } from './queries/treasury-summary.ts'
import { treasuryAmount } from './token-amounts.ts'
import { TreasuryAssets } from './treasury-assets.tsx'
import { TreasuryCharts } from './treasury-charts.tsx'
import { TreasuryHeader } from './treasury-header.tsx'
import { TreasuryHistory } from './treasury-history.tsx'
import { TreasurySpending } from './treasury-spending.tsx'
import './treasury.css'

/**
 * The DAO's treasury, `/treasury`: its Safe read from the chain (signers, threshold, nonce, warnings) and
 * assets, then from the server's index of it the charts, spending per proposal category and the history.
 */
export function TreasuryPage() {
  const summary = useTreasurySummary()
  return (
    <article className="page treasury-page">
      {summary.error ? (
        <>
          <header className="page-header">
            <h1>Treasury</h1>
          </header>
          <SafeUnavailable
            error={summary.error}
            retrying={summary.isFetching}
            retry={() => void summary.refetch()}
          />
        </>
      ) : summary.isPending ? (
        <>
          <header className="page-header">
            <h1>Treasury</h1>
          </header>
          <p className="muted">Loading the treasury…</p>
        </>
      ) : (
        <TreasuryView summary={summary.data} />
      )}
    </article>
  )
}

/** The spec's words when the Safe cannot be read, the server's reason below them, and a way to try again. */
function SafeUnavailable({ error, retrying, retry }: { error: Error; retrying: boolean; retry: () => void }) {
  return (
    <section className="card treasury-unavailable" aria-labelledby="treasury-unavailable">
      <p role="alert" id="treasury-unavailable" className="treasury-unavailable-title">
        Could not load Safe information
      </p>
      <p className="muted">{describeRequestError(error)}</p>
      <button type="button" className="button" disabled={retrying} onClick={retry}>
        {retrying ? 'Retrying…' : 'Retry'}
      </button>
    </section>
  )
}

function TreasuryView({ summary }: { summary: TreasurySummary }) {
  const { safe } = summary
  if (!summary.configured || !safe) {
    return (
      <>
        <header className="page-header">
          <h1>Treasury</h1>
        </header>
        <p data-testid="treasury-none">No treasury is configured.</p>
        <p className="muted">
          The operator names the DAO's Safe with the TREASURY_SAFE setting; its funds and history then show
          here.
        </p>
      </>
    )
  }
  const amount = treasuryAmount(summary.assets)
  return (
    <>
      <TreasuryHeader summary={summary} safe={safe} />
      <div className="grid">
        <TreasuryAssets summary={summary} />
        <TreasurySpending amount={amount} />
      </div>
      <TreasuryCharts assets={summary.assets} amount={amount} />
      <TreasuryHistory assets={summary.assets} amount={amount} />
    </>
  )
}
