import { WALLET_ERROR_MESSAGES, walletErrorMessage } from '@guildhall/core'

/**
 * The sentence for a wallet request that failed: "You cancelled `what` in your wallet." when the member
 * turned it down, the wallet's reason otherwise.
 */
export function walletFailure(error: unknown, what: string): string {
  const message = walletErrorMessage(error)
  return message === WALLET_ERROR_MESSAGES.userRejected ? `You cancelled ${what} in your wallet.` : message
}
