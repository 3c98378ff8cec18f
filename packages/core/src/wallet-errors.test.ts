import {
  ChainNotConfiguredError,
  ConnectorAccountNotFoundError,
  ConnectorNotConnectedError,
  ConnectorNotFoundError,
  connect,
  createConfig,
  mock,
  ProviderNotFoundError,
  SwitchChainNotSupportedError,
  switchChain,
} from '@wagmi/core'
import {
  encodeErrorResult,
  HttpRequestError,
  http,
  parseAbi,
  ResourceUnavailableRpcError,
  RpcRequestError,
  SocketClosedError,
  SwitchChainError,
  TimeoutError,
  UrlRequiredError,
  UserRejectedRequestError,
  WebSocketRequestError,
  zeroAddress,
} from 'viem'
import { mainnet } from 'viem/chains'
import { getContractError, getTransactionError } from 'viem/utils'
import { describe, expect, test } from 'vitest'
import {
  chainNotConfiguredMessage,
  isUserRejection,
  WALLET_ERROR_MESSAGES as M,
  SPEC_LIBRARY_MESSAGES,
  walletErrorMessage,
} from './wallet-errors.ts'

/** An EIP-1193 provider error as a wallet returns it (a plain object with a code). */
const providerError = (code: number, message: string) => Object.assign(new Error(message), { code })

const RPC_URL = 'http://127.0.0.1:8545'
const SWITCH = { action: 'switchChain' } as const
const abi = parseAbi(['function delegate(address delegatee)'])

describe('walletErrorMessage', () => {
  test('a user rejection (4001, as wagmi wraps it in UserRejectedRequestError) says the user rejected the request', () => {
    const raw = providerError(4001, 'User rejected the request.')
    expect(walletErrorMessage(new UserRejectedRequestError(raw))).toBe(M.userRejected)
    expect(walletErrorMessage(raw)).toBe(M.userRejected)
  })

  test('a rejection deep inside a failed contract write (ContractFunctionExecutionError → TransactionExecutionError → UserRejectedRequestError) is still a rejection', () => {
    const rejected = new UserRejectedRequestError(providerError(4001, 'User denied transaction signature.'))
    const error = getContractError(getTransactionError(rejected, { account: null, chain: undefined }), {
      abi,
      address: zeroAddress,
      args: [zeroAddress],
      functionName: 'delegate',
    })
    expect(error.name).toBe('ContractFunctionExecutionError')
    expect(walletErrorMessage(error)).toBe(M.userRejected)
    expect(isUserRejection(error)).toBe(true)
  })

  test('WalletConnect\'s "Connection request reset. Please try again." counts as a rejection', () => {
    expect(walletErrorMessage(new Error('Connection request reset. Please try again.'))).toBe(M.userRejected)
  })

  test('a request already pending in the wallet (-32002, ResourceUnavailableRpcError) asks to open the wallet', () => {
    const raw = providerError(-32002, 'Request of type wallet_requestPermissions already pending')
    expect(walletErrorMessage(new ResourceUnavailableRpcError(raw))).toBe(M.requestPending)
    expect(walletErrorMessage(raw)).toBe(M.requestPending)
  })

  test('"User rejected switch after adding network.", built as wagmi\'s injected connector throws it, counts as a rejected switch and is shown in the spec\'s words, then what to do', () => {
    // injected.js: the wallet added the chain but is still on another one; the inner error is
    // wrapped once more by the catch around wallet_addEthereumChain.
    const error = new UserRejectedRequestError(
      new UserRejectedRequestError(new Error('User rejected switch after adding network.')),
    )
    expect(isUserRejection(error)).toBe(true)
    expect(walletErrorMessage(error, SWITCH)).toBe(M.rejectedAfterAdd)
    expect(walletErrorMessage(error)).toBe(M.rejectedAfterAdd)
    expect(M.rejectedAfterAdd).toBe(
      'User rejected switch after adding network. Your wallet added the network but stayed on another one: switch networks in your wallet to continue.',
    )
  })

  test('a wallet rejecting wallet_addEthereumChain after 4902 is a rejection (wagmi wraps it in UserRejectedRequestError)', () => {
    const error = new UserRejectedRequestError(providerError(4001, 'User rejected the request.'))
    expect(walletErrorMessage(error, SWITCH)).toBe(M.userRejected)
  })

  test('SwitchChainNotSupportedError says the wallet cannot switch networks from the app', () => {
    const error = new SwitchChainNotSupportedError({ connector: { name: 'Test Wallet' } as never })
    expect(walletErrorMessage(error)).toBe(M.switchNotSupported)
    expect(M.switchNotSupported).toBe('Your wallet does not support switching networks from the app.')
  })

  test('a switch failing because the wallet lacks the method (4200 or -32601, wrapped in SwitchChainError) says it cannot switch', () => {
    for (const raw of [
      providerError(4200, 'The requested method is not supported'),
      providerError(-32601, 'The method "wallet_switchEthereumChain" does not exist'),
    ]) {
      expect(walletErrorMessage(new SwitchChainError(raw), SWITCH), String(raw.code)).toBe(
        M.switchNotSupported,
      )
    }
  })

  test('an unsupported-method error outside a chain switch is not reported as a switching problem', () => {
    const error = providerError(4200, 'The requested method is not supported')
    expect(walletErrorMessage(error)).toBe(M.unknown)
  })

  test('switching to a chain the connector does not have (SwitchChainError wrapping ChainNotConfiguredError) gives "chain not found on connector."', () => {
    // What wagmi's injected and mock connectors throw for a chain missing from the config.
    const error = new SwitchChainError(new ChainNotConfiguredError())
    expect(walletErrorMessage(error, SWITCH)).toBe(M.chainNotFoundOnConnector)
    expect(M.chainNotFoundOnConnector).toBe(
      'chain not found on connector. This network is not available in this app.',
    )
  })

  test('a chain the app does not configure (ChainNotConfiguredError) gives \'Chain "{id}" not configured for connector "{connector}".\' with the chain and connector of the context', () => {
    const context = { chainId: 10, connector: 'Test Wallet' }
    expect(walletErrorMessage(new ChainNotConfiguredError(), context)).toBe(
      'Chain "10" not configured for connector "Test Wallet". This network is not available in this app.',
    )
    expect(chainNotConfiguredMessage(10, 'Test Wallet')).toBe(
      walletErrorMessage(new ChainNotConfiguredError(), context),
    )
  })

  test('wagmi 2 itself: a connected wallet switched to a chain the config lacks gives "chain not found on connector."; a client asked for that chain, \'Chain "{id}" not configured for connector "{connector}".\'', async () => {
    const config = createConfig({
      chains: [mainnet],
      connectors: [mock({ accounts: [zeroAddress] })],
      transports: { [mainnet.id]: http(RPC_URL) },
      storage: null,
    })
    const connector = config.connectors[0]
    if (!connector) throw new Error('no connector')
    await connect(config, { connector })
    const switchError = await switchChain(config, { chainId: 10 as typeof mainnet.id }).catch(
      (error: unknown) => error,
    )
    expect(walletErrorMessage(switchError, SWITCH)).toBe(M.chainNotFoundOnConnector)
    let clientError: unknown
    try {
      config.getClient({ chainId: 10 as typeof mainnet.id })
    } catch (error) {
      clientError = error
    }
    expect(walletErrorMessage(clientError, { chainId: 10, connector: connector.name })).toBe(
      'Chain "10" not configured for connector "Mock Connector". This network is not available in this app.',
    )
  })

  test('a chain the wallet does not know (4902 from the wallet) says it could not be added', () => {
    expect(walletErrorMessage(providerError(4902, 'Unrecognized chain ID "0x7a6a".'), SWITCH)).toBe(
      M.chainUnknown,
    )
  })

  test('any other switch failure (SwitchChainError, whose own code is 4902) is not blamed on an unknown chain', () => {
    const error = new SwitchChainError(providerError(-32603, 'Internal JSON-RPC error.'))
    expect(error.code).toBe(4902)
    expect(walletErrorMessage(error, SWITCH)).toBe(M.unknown)
  })

  test('no wallet: ConnectorNotFoundError, and ProviderNotFoundError on connect, give "Connector not found"; ProviderNotFoundError elsewhere gives "provider is required."', () => {
    expect(walletErrorMessage(new ConnectorNotFoundError())).toBe(M.connectorNotFound)
    expect(walletErrorMessage(new ProviderNotFoundError(), { action: 'connect' })).toBe(M.connectorNotFound)
    expect(walletErrorMessage(new ProviderNotFoundError(), SWITCH)).toBe(M.providerRequired)
    expect(walletErrorMessage(new ProviderNotFoundError())).toBe(M.providerRequired)
    expect(M.connectorNotFound).toBe(
      'Connector not found. No wallet was found: install a wallet extension or choose another wallet from the list.',
    )
    expect(M.providerRequired).toBe(
      'provider is required. No wallet was found: install a wallet extension or choose another wallet from the list.',
    )
  })

  test('a transport without a URL (viem\'s UrlRequiredError) gives "No URL was provided to the Transport."', () => {
    // viem's http() transport on a chain without an RPC URL, given none.
    let error: unknown
    try {
      http()({ chain: undefined })
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(UrlRequiredError)
    expect((error as UrlRequiredError).shortMessage.startsWith(SPEC_LIBRARY_MESSAGES.noTransportUrl)).toBe(
      true,
    )
    expect(walletErrorMessage(error)).toBe(M.noTransportUrl)
    expect(M.noTransportUrl).toBe(
      'No URL was provided to the Transport. The app has no node address for this network.',
    )
  })

  test('acting without a connection (ConnectorNotConnectedError, ConnectorAccountNotFoundError) asks to connect', () => {
    expect(walletErrorMessage(new ConnectorNotConnectedError())).toBe(M.notConnected)
    const error = new ConnectorAccountNotFoundError({
      address: zeroAddress,
      connector: { name: 'Test Wallet' } as never,
    })
    expect(walletErrorMessage(error)).toBe(M.notConnected)
  })

  test('a node answering "insufficient funds" (viem maps it to InsufficientFundsError) says there is not enough ETH', () => {
    const rpc = new RpcRequestError({
      body: { method: 'eth_sendTransaction' },
      error: { code: -32000, message: 'insufficient funds for gas * price + value' },
      url: RPC_URL,
    })
    const error = getTransactionError(rpc, { account: null, chain: undefined })
    expect(error.cause.name).toBe('InsufficientFundsError')
    expect(walletErrorMessage(error)).toBe(M.insufficientFunds)
  })

  test('a contract revert (ContractFunctionRevertedError inside ContractFunctionExecutionError) says the contract reverted', () => {
    const data = encodeErrorResult({
      abi: parseAbi(['error Error(string)']),
      errorName: 'Error',
      args: ['GovernanceToken: nope'],
    })
    const rpc = new RpcRequestError({
      body: { method: 'eth_estimateGas' },
      error: { code: 3, message: 'execution reverted: GovernanceToken: nope', data },
      url: RPC_URL,
    })
    const error = getContractError(rpc, {
      abi,
      address: zeroAddress,
      args: [zeroAddress],
      functionName: 'delegate',
    })
    expect(error.cause.name).toBe('ContractFunctionRevertedError')
    expect(walletErrorMessage(error)).toBe(M.reverted)
  })

  test('the node not answering (HttpRequestError, TimeoutError) says the network did not answer', () => {
    expect(
      walletErrorMessage(new HttpRequestError({ url: RPC_URL, status: 502, body: { method: 'eth_call' } })),
    ).toBe(M.network)
    expect(walletErrorMessage(new TimeoutError({ url: RPC_URL, body: { method: 'eth_call' } }))).toBe(
      M.network,
    )
  })

  test('a WebSocket that closed ("Socket is closed.", SocketClosedError, alone or inside a failed request) says the connection closed; a socket that never opened, that the network did not answer', () => {
    const WS_URL = 'wss://node.example/ws'
    const closed = new SocketClosedError({ url: WS_URL })
    const inRequest = new WebSocketRequestError({ url: WS_URL, cause: closed })
    const inRead = getContractError(inRequest, {
      abi,
      address: zeroAddress,
      args: [zeroAddress],
      functionName: 'delegate',
    })
    for (const error of [closed, inRequest, inRead, new Error('Socket is closed.')]) {
      expect(walletErrorMessage(error), (error as Error).name).toBe(M.socketClosed)
    }
    expect(M.socketClosed).toBe(
      'The connection to the network was closed. Try again: the app opens a new one.',
    )
    expect(walletErrorMessage(new WebSocketRequestError({ url: WS_URL, details: 'refused' }))).toBe(M.network)
  })

  test('anything else, and non-errors, give "Oops, something went wrong!"', () => {
    for (const error of [new Error('boom'), 'boom', null, undefined, 42, {}]) {
      expect(walletErrorMessage(error), String(error)).toBe('Oops, something went wrong!')
    }
  })
})

describe('isUserRejection', () => {
  test('true for 4001 and UserRejectedRequestError at any depth, false for other errors', () => {
    expect(isUserRejection(new UserRejectedRequestError(new Error('x')))).toBe(true)
    expect(isUserRejection({ cause: { cause: { code: 4001 } } })).toBe(true)
    expect(isUserRejection(new ResourceUnavailableRpcError(new Error('x')))).toBe(false)
    expect(isUserRejection(new ConnectorNotFoundError())).toBe(false)
    expect(isUserRejection(undefined)).toBe(false)
  })
})
