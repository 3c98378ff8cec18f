import { WALLET_ERROR_MESSAGES, walletErrorMessage } from '@guildhall/core'
import { useAccount, useWatchAsset } from 'wagmi'
import { useTokenContract, useTokenMetadata } from '../../lib/token.ts'

/** Asks the wallet to track the governance token (wallet_watchAsset). */
export function AddTokenButton() {
  const token = useTokenContract()
  const { metadata } = useTokenMetadata()
  const { isConnected } = useAccount()
  const watch = useWatchAsset()
  if (!token || !metadata || !isConnected) return null
  const rejected = watch.error && walletErrorMessage(watch.error) === WALLET_ERROR_MESSAGES.userRejected
  return (
    <div className="add-token">
      <button
        type="button"
        className="button"
        disabled={watch.isPending}
        onClick={() =>
          watch.watchAsset({
            type: 'ERC20',
            options: { address: token.address, symbol: metadata.symbol, decimals: metadata.decimals },
          })
        }
      >
        Add {metadata.symbol} to your wallet
      </button>
      <span role="status">
        {watch.isSuccess ? `${metadata.symbol} is now in your wallet.` : null}
        {watch.error && !rejected ? walletErrorMessage(watch.error) : null}
      </span>
    </div>
  )
}
