/**
 * The connector and library messages as the spec quotes them (from wagmi 1 and viem). wagmi 2 words its
 * errors differently ("Chain not configured.", "Provider not found."), so the app maps wagmi 2's error
 * classes to these words, and a member meeting one reads the spec's text first, then what to do.
 */
export const SPEC_LIBRARY_MESSAGES = {
  rejectedAfterAdd: 'User rejected switch after adding network.',
  chainNotFoundOnConnector: 'chain not found on connector.',
  connectorNotFound: 'Connector not found',
  providerRequired: 'provider is required.',
  noTransportUrl: 'No URL was provided to the Transport.',
} as const

const NO_WALLET_HINT =
  'No wallet was found: install a wallet extension or choose another wallet from the list.'
const NOT_IN_APP_HINT = 'This network is not available in this app.'

/** User-facing messages for the wallet, chain and library errors the app surfaces (docs/spec-coverage.md). */
export const WALLET_ERROR_MESSAGES = {
  userRejected: 'You rejected the request in your wallet.',
  requestPending: 'Your wallet already has a request waiting. Open your wallet to approve or reject it.',
  switchNotSupported: 'Your wallet does not support switching networks from the app.',
  rejectedAfterAdd: `${SPEC_LIBRARY_MESSAGES.rejectedAfterAdd} Your wallet added the network but stayed on another one: switch networks in your wallet to continue.`,
  chainUnknown: 'Your wallet does not know this network and could not add it.',
  chainNotFoundOnConnector: `${SPEC_LIBRARY_MESSAGES.chainNotFoundOnConnector} ${NOT_IN_APP_HINT}`,
  connectorNotFound: `${SPEC_LIBRARY_MESSAGES.connectorNotFound}. ${NO_WALLET_HINT}`,
  providerRequired: `${SPEC_LIBRARY_MESSAGES.providerRequired} ${NO_WALLET_HINT}`,
  noTransportUrl: `${SPEC_LIBRARY_MESSAGES.noTransportUrl} The app has no node address for this network.`,
  notConnected: 'Connect your wallet first.',
  insufficientFunds: 'Your wallet does not have enough ETH to pay for this transaction.',
  reverted: 'The transaction was reverted by the contract.',
  network: 'The network did not answer. Check your connection and try again.',
  socketClosed: 'The connection to the network was closed. Try again: the app opens a new one.',
  unknown: 'Oops, something went wrong!',
} as const

/**
 * The spec's 'Chain "{id}" not configured for connector "{connector}".' for a chain missing from the
 * app's configuration, with what it means.
 */
export function chainNotConfiguredMessage(
  chainId: number | undefined,
  connector: string | undefined,
): string {
  return `Chain "${chainId ?? 'unknown'}" not configured for connector "${connector ?? 'none'}". ${NOT_IN_APP_HINT}`
}

/**
 * What was attempted, when that changes the meaning: a wallet without the switch method cannot switch; a
 * connect with no provider is the spec's "Connector not found"; the chain and connector name a
 * ChainNotConfiguredError, which wagmi 2 throws without them.
 */
export interface WalletErrorContext {
  action?: 'switchChain' | 'connect'
  chainId?: number
  connector?: string
}

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
 * A sentence a person understands for any error a wallet, wagmi or viem throws; where the spec quotes a
 * library message for the situation, that message leads it.
 */
export function walletErrorMessage(error: unknown, context: WalletErrorContext = {}): string {
  const { action } = context
  const errors = errorCauses(error)
  const has = (test: (e: ErrorLike) => boolean) => errors.some(test)
  const named = (name: string) => has((e) => e.name === name)
  const messageIncludes = (text: string) =>
    has((e) => typeof e.message === 'string' && e.message.includes(text))

  // wagmi counts a wallet that added the chain but stayed on another as a rejected switch.
  if (messageIncludes(SPEC_LIBRARY_MESSAGES.rejectedAfterAdd)) return WALLET_ERROR_MESSAGES.rejectedAfterAdd
  if (isUserRejection(error)) return WALLET_ERROR_MESSAGES.userRejected
  if (named('SwitchChainNotSupportedError')) return WALLET_ERROR_MESSAGES.switchNotSupported
  if (action === 'switchChain' && has((e) => UNSUPPORTED_METHOD_CODES.includes(e.code as number))) {
    return WALLET_ERROR_MESSAGES.switchNotSupported
  }
  if (has((e) => e.code === -32002) || named('ResourceUnavailableRpcError'))
    return WALLET_ERROR_MESSAGES.requestPending
  if (named('ChainNotConfiguredError')) {
    // A connector's switchChain wraps it in SwitchChainError: the connector does not have the chain.
    if (named('SwitchChainError')) return WALLET_ERROR_MESSAGES.chainNotFoundOnConnector
    return chainNotConfiguredMessage(context.chainId, context.connector)
  }
  // viem's SwitchChainError carries 4902 as its own code whatever its cause; only a wallet's 4902 counts.
  if (has((e) => e.code === 4902 && e.name !== 'SwitchChainError')) return WALLET_ERROR_MESSAGES.chainUnknown
  if (named('ConnectorNotFoundError')) return WALLET_ERROR_MESSAGES.connectorNotFound
  // The spec: "No injected provider gives 'Connector not found'" on connect; elsewhere (a connected
  // wallet's provider gone) wagmi 1 said "provider is required.".
  if (named('ProviderNotFoundError')) {
    return action === 'connect'
      ? WALLET_ERROR_MESSAGES.connectorNotFound
      : WALLET_ERROR_MESSAGES.providerRequired
  }
  if (named('UrlRequiredError')) return WALLET_ERROR_MESSAGES.noTransportUrl
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
