import { chainName } from '../../lib/chains.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import type { DelegationGate } from './use-delegation.ts'

/**
 * What a delegation control shows in place of itself while a wallet is missing or on another network.
 * `action` completes "Connect a wallet to …". Connecting has one place, the header's Connect Wallet: the
 * sentence points there rather than offering a second button beside it.
 */
export function DelegationGateNotice({
  gate,
  action,
}: {
  gate: Exclude<DelegationGate, 'none' | 'ready'>
  action: string
}) {
  const config = usePublicConfig()
  if (gate === 'connect') {
    return (
      <p className="muted" data-testid="delegation-connect">
        Connect a wallet to {action}: use <strong>Connect Wallet</strong> at the top of the page.
      </p>
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
