import { governanceDomain } from '@guildhall/core'
import { useAccount } from 'wagmi'
import { usePublicConfig } from './public-config-context.tsx'

/**
 * The DAO's chain and signing domain, and whether the connected wallet is on that chain: a wallet checks
 * an EIP-712 domain's chain id against its own, so signing waits until the member has switched.
 */
export function useDaoChain() {
  const config = usePublicConfig()
  const { address, chainId, isConnected } = useAccount()
  const token = config.token
  const chain = config.chains.find((c) => c.id === token?.chainId)
  return {
    address,
    isConnected,
    token,
    rpcUrl: chain?.rpcUrl,
    domain: token ? governanceDomain({ chainId: token.chainId, token: token.address }) : undefined,
    rules: config.governance,
    wrongChain: isConnected && token !== null && chainId !== token.chainId,
  }
}
