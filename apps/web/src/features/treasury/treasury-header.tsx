import { shortenAddress, type TreasurySummary } from '@guildhall/core'
import { FullAddress } from '../../components/full-address.tsx'
import { Term } from '../../components/term.tsx'
import { MemberName } from '../../lib/names.tsx'
import { AddressText } from './address-text.tsx'

type Safe = NonNullable<TreasurySummary['safe']>

/**
 * Who holds the DAO's money: the Safe's name and address, its version, "2 of 3 signers" and who they are
 * (each a link to their member page), its nonce, the block it was read at, and what the page warns about.
 */
export function TreasuryHeader({ summary, safe }: { summary: TreasurySummary; safe: Safe }) {
  return (
    <header className="page-header treasury-header">
      <h1>Treasury</h1>
      <p className="treasury-safe" data-testid="treasury-safe">
        <span className="treasury-safe-name">{safe.name ?? shortenAddress(safe.address)}</span>{' '}
        <span className="muted">
          <Term id="safe">Safe</Term> {safe.version}
        </span>
      </p>
      <FullAddress address={safe.address} testId="treasury-address" />
      <dl className="stats treasury-figures">
        <div className="stat">
          <dt>
            <Term id="safe-signers">Signers</Term>
          </dt>
          <dd data-testid="treasury-threshold">
            {safe.threshold} of {safe.owners.length} signers
          </dd>
        </div>
        <div className="stat">
          <dt>
            <Term id="safe-nonce">Nonce</Term>
          </dt>
          <dd data-testid="treasury-nonce">{safe.nonce}</dd>
        </div>
        <div className="stat">
          <dt>Read</dt>
          <dd data-testid="treasury-block">as of block {summary.blockNumber.toLocaleString('en-US')}</dd>
        </div>
      </dl>
      <ul className="treasury-signers" aria-label="Signers" data-testid="treasury-signers">
        {safe.owners.map((owner) => (
          <li key={owner}>
            <MemberName address={owner} />
          </li>
        ))}
      </ul>
      {summary.warnings.length > 0 ? (
        <ul className="treasury-warnings" aria-label="Warnings" data-testid="treasury-warnings">
          {summary.warnings.map((warning) => (
            <li key={`${warning.kind}-${warning.address ?? ''}`} className="treasury-warning">
              <AddressText text={warning.message} />
            </li>
          ))}
        </ul>
      ) : null}
    </header>
  )
}
