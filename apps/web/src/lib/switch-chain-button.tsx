import { useSwitchChain } from 'wagmi'
import { chainName } from './chains.ts'
import { usePublicConfig } from './public-config-context.tsx'

/**
 * "Switch to <the DAO's chain> [purpose]": a wallet checks a signature's or a transaction's chain against
 * its own, so the member is led to the governance token's chain first.
 */
export function SwitchChainButton({ purpose, primary = false }: { purpose?: string; primary?: boolean }) {
  const { token, chains } = usePublicConfig()
  const { switchChain, isPending } = useSwitchChain()
  if (!token) return null
  return (
    <button
      type="button"
      className={primary ? 'button primary' : 'button'}
      disabled={isPending}
      // A failed switch is shown by the app's alert area, like every switchChain error (lib/query-client.ts).
      onClick={() => switchChain({ chainId: token.chainId })}
    >
      Switch to {chainName(chains, token.chainId)}
      {purpose ? ` ${purpose}` : null}
    </button>
  )
}
