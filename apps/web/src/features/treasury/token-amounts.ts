import { formatTokenAmount, type TreasuryAsset } from '@guildhall/core'

/** Formats an amount of a treasury token (base units), e.g. "1.5 ETH", "1,000 GHD". */
export type TreasuryAmount = (token: string | null, amount: string | bigint) => string

/**
 * Amounts in the tokens the summary lists, with their symbols and decimals; a token it does not list (no
 * longer configured) in base units, said so.
 */
export function treasuryAmount(assets: TreasuryAsset[]): TreasuryAmount {
  const byToken = new Map(assets.map((asset) => [asset.token?.toLowerCase() ?? null, asset]))
  return (token, amount) => {
    const asset = byToken.get(token?.toLowerCase() ?? null)
    return asset
      ? `${formatTokenAmount(BigInt(amount), asset.decimals)} ${asset.symbol}`
      : `${amount} base units`
  }
}
