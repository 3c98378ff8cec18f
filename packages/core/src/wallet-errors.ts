/** User-facing messages for the wallet, chain and library errors the app surfaces (docs/spec-coverage.md). */
export const WALLET_ERROR_MESSAGES = {
  userRejected: 'You rejected the request in your wallet.',
  requestPending: 'Your wallet already has a request waiting. Open your wallet to approve or reject it.',
  switchNotSupported: 'Your wallet does not support switching networks from the app.',
  addedWithoutSwitch:
    'The network was added to your wallet, but your wallet stayed on another network. Switch networks in your wallet to continue.',
  chainUnknown: 'Your wallet does not know this network and could not add it.',
  chainNotConfigured: 'This network is not available in this app.',
  noWallet: 'No wallet was found. Install a wallet extension or choose another wallet from the list.',
  notConnected: 'Connect your wallet first.',
  insufficientFunds: 'Your wallet does not have enough ETH to pay for this transaction.',
  reverted: 'The transaction was reverted by the contract.',
  network: 'The network did not answer. Check your connection and try again.',
  socketClosed: 'The connection to the network was closed. Try again: the app opens a new one.',
  unknown: 'Oops, something went wrong!',
} as const

type ErrorLike = {
  name?: unknown
  code?: unknown
  message?: unknown
  shortMessage?: unknown
  cause?: unknown
}

/** The error and its causes, outermost first (viem and wagmi wrap errors in `cause`). */
function errorCauses(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = []
  let current = error
  while (current && typeof current === 'object' && out.length < 10) {
    out.push(current as ErrorLike)
    current = (current as ErrorLike).cause
  }
  return out
}

/** True for errors that are a deliberate user choice, shown as no error: rejected, closed modal, no accounts. */
export function isUserRejection(error: unknown): boolean {
  return errorCauses(error).some(
    (e) =>
      e.code === 4001 ||
      e.name === 'UserRejectedRequestError' ||
      e.message === 'Connection request reset. Please try again.',
  )
}

/** EIP-1193 "unsupported method" and JSON-RPC "method not found". */
const UNSUPPORTED_METHOD_CODES = [4200, -32601]

/**
 * A sentence a person understands for any error a wallet, wagmi or viem throws. `action` names what
 * was attempted when that changes the meaning (a wallet without the switch method cannot switch).
 */
export function walletErrorMessage(error: unknown, action?: 'switchChain'): string {
  const errors = errorCauses(error)
  const has = (test: (e: ErrorLike) => boolean) => errors.some(test)
  const named = (name: string) => has((e) => e.name === name)
  const messageIncludes = (text: string) =>
    has((e) => typeof e.message === 'string' && e.message.includes(text))

  if (messageIncludes('User rejected switch after adding network'))
    return WALLET_ERROR_MESSAGES.addedWithoutSwitch
  if (isUserRejection(error)) return WALLET_ERROR_MESSAGES.userRejected
  if (named('SwitchChainNotSupportedError')) return WALLET_ERROR_MESSAGES.switchNotSupported
  if (action === 'switchChain' && has((e) => UNSUPPORTED_METHOD_CODES.includes(e.code as number))) {
    return WALLET_ERROR_MESSAGES.switchNotSupported
  }
  if (has((e) => e.code === -32002) || named('ResourceUnavailableRpcError'))
    return WALLET_ERROR_MESSAGES.requestPending
  if (named('ChainNotConfiguredError')) return WALLET_ERROR_MESSAGES.chainNotConfigured
  // viem's SwitchChainError carries 4902 as its own code whatever its cause; only a wallet's 4902 counts.
  if (has((e) => e.code === 4902 && e.name !== 'SwitchChainError')) return WALLET_ERROR_MESSAGES.chainUnknown
  if (named('ConnectorNotFoundError') || named('ProviderNotFoundError')) return WALLET_ERROR_MESSAGES.noWallet
  if (named('ConnectorNotConnectedError') || named('ConnectorAccountNotFoundError'))
    return WALLET_ERROR_MESSAGES.notConnected
  if (named('InsufficientFundsError')) return WALLET_ERROR_MESSAGES.insufficientFunds
  if (named('ContractFunctionRevertedError') || named('ExecutionRevertedError'))
    return WALLET_ERROR_MESSAGES.reverted
  // viem's "Socket is closed." (now "The socket has been closed."): the node's WebSocket went away.
  if (named('SocketClosedError') || messageIncludes('Socket is closed.'))
    return WALLET_ERROR_MESSAGES.socketClosed
  if (named('HttpRequestError') || named('TimeoutError') || named('WebSocketRequestError'))
    return WALLET_ERROR_MESSAGES.network
  return WALLET_ERROR_MESSAGES.unknown
}
