import { chainName } from '../../lib/chains.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { requestConnectModal } from '../../wallet-kit/kit-bridge.ts'
import type { DelegationGate } from './use-delegation.ts'

/**
 * What a delegation control shows in place of itself while a wallet is missing or on another network.
 * `action` completes "Connect a wallet to …"; `offerConnect` adds the connect button (where the page's
 * header is not next to it).
 */
export function DelegationGateNotice({
  gate,
  action,
  offerConnect = false,
}: {
  gate: Exclude<DelegationGate, 'none' | 'ready'>
  action: string
  offerConnect?: boolean
}) {
  const config = usePublicConfig()
  if (gate === 'connect') {
    return (
      <>
        <p className="muted">Connect a wallet to {action}.</p>
        {offerConnect ? (
          <button type="button" className="button" onClick={requestConnectModal}>
            Connect a wallet
          </button>
        ) : null}
      </>
    )
  }
  return (
    <>
      <p>
        The governance token lives on {config.token ? chainName(config.chains, config.token.chainId) : null}.
        Switch networks to delegate.
      </p>
      <SwitchChainButton />
    </>
  )
}

/** Where a delegation stands (announced as it changes) and, when it failed, why. */
export function DelegationOutcome({
  progressText,
  error,
  testId,
}: {
  progressText: string | null
  error: string | null | undefined
  testId: string
}) {
  return (
    <>
      <p className="status" role="status" data-testid={testId}>
        {progressText}
      </p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </>
  )
}
