import { formatTokenAmount } from '@guildhall/core'
import { Card, Stat } from '../../components/card.tsx'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { useTokenMetadata } from '../../lib/token.ts'
import { useTokenHolders } from './queries/token-holders.ts'

/**
 * The DAO's name and description with live figures of its governance token. The server renders the same
 * page-header markup into index.html (apps/api/src/web/app-shell.ts): change both together.
 */
export function DaoSummary() {
  const config = usePublicConfig()
  const { metadata, error } = useTokenMetadata()
  const holders = useTokenHolders()
  return (
    <>
      <header className="page-header">
        <h1>{config.dao.name}</h1>
        {config.dao.description ? <p className="lead">{config.dao.description}</p> : null}
      </header>
      <Card title="Governance token" testId="token-card">
        {!config.token ? (
          <p className="muted">No governance token is configured for this DAO yet.</p>
        ) : error ? (
          <p role="alert">The token could not be read from the chain. Check that the network is reachable.</p>
        ) : (
          <dl className="stats">
            <Stat label="Name" value={metadata?.name} testId="token-name" />
            <Stat label="Symbol" value={metadata?.symbol} testId="token-symbol" />
            <Stat
              label="Total supply"
              value={
                metadata
                  ? `${formatTokenAmount(metadata.totalSupply, metadata.decimals)} ${metadata.symbol}`
                  : undefined
              }
              testId="token-supply"
            />
            <Stat
              label="Holders"
              value={
                holders.error ? <span title={holders.error.message}>unavailable</span> : holders.data?.holders
              }
              testId="token-holders"
            />
          </dl>
        )}
      </Card>
    </>
  )
}
