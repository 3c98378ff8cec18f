import { formatTokenAmount } from '@guildhall/core'
import { governanceTokenAbi } from '@guildhall/core/generated/governance-token'
import { useReadContracts } from 'wagmi'
import { usePublicConfig } from './public-config-context.tsx'

/** The configured governance token: address, chain and its ABI. */
export function useTokenContract() {
  const { token } = usePublicConfig()
  return token ? { address: token.address, chainId: token.chainId, abi: governanceTokenAbi } : null
}

/** Name, symbol, decimals and total supply of the governance token, in one multicall. */
export function useTokenMetadata() {
  const token = useTokenContract()
  const contract = { address: token?.address, chainId: token?.chainId, abi: governanceTokenAbi } as const
  const result = useReadContracts({
    allowFailure: false,
    contracts: [
      { ...contract, functionName: 'name' },
      { ...contract, functionName: 'symbol' },
      { ...contract, functionName: 'decimals' },
      { ...contract, functionName: 'totalSupply' },
    ],
    query: { enabled: Boolean(token) },
  })
  const data = result.data
  const metadata = data
    ? { name: data[0], symbol: data[1], decimals: data[2], totalSupply: data[3] }
    : undefined
  return { ...result, metadata }
}

/**
 * Formats token amounts (base units) as the rest of the app shows them, e.g. "1,000 GHD"; "…" until the
 * token's decimals are known, the bare base units if they cannot be read.
 */
export function useTokenAmount(): (value: string | bigint) => string {
  const { metadata, isError } = useTokenMetadata()
  return (value) =>
    metadata
      ? `${formatTokenAmount(BigInt(value), metadata.decimals)} ${metadata.symbol}`
      : isError
        ? `${value} base units`
        : '…'
}

/** Balance, voting power and delegate of one account, in one multicall. */
export function useTokenAccount(address: `0x${string}` | undefined) {
  const token = useTokenContract()
  const contract = { address: token?.address, chainId: token?.chainId, abi: governanceTokenAbi } as const
  const account = address ?? '0x0000000000000000000000000000000000000000'
  const result = useReadContracts({
    allowFailure: false,
    contracts: [
      { ...contract, functionName: 'balanceOf', args: [account] },
      { ...contract, functionName: 'getVotes', args: [account] },
      { ...contract, functionName: 'delegates', args: [account] },
    ],
    query: { enabled: Boolean(token && address) },
  })
  const data = result.data
  return { ...result, account: data ? { balance: data[0], votes: data[1], delegate: data[2] } : undefined }
}
