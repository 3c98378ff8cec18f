import {
  ChainNotConfiguredError,
  ConnectorAccountNotFoundError,
  ConnectorNotConnectedError,
  ConnectorNotFoundError,
  ProviderNotFoundError,
  SwitchChainNotSupportedError,
} from '@wagmi/core'
import {
  encodeErrorResult,
  HttpRequestError,
  parseAbi,
  ResourceUnavailableRpcError,
  RpcRequestError,
  SocketClosedError,
  SwitchChainError,
  TimeoutError,
  UserRejectedRequestError,
  WebSocketRequestError,
  zeroAddress,
} from 'viem'
import { getContractError, getTransactionError } from 'viem/utils'
import { describe, expect, test } from 'vitest'
import { isUserRejection, WALLET_ERROR_MESSAGES as M, walletErrorMessage } from './wallet-errors.ts'

/** An EIP-1193 provider error as a wallet returns it (a plain object with a code). */
const providerError = (code: number, message: string) => Object.assign(new Error(message), { code })

const RPC_URL = 'http://127.0.0.1:8545'
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

  test('"User rejected switch after adding network.", built as wagmi\'s injected connector throws it, says the wallet stayed on another network', () => {
    // injected.js: the wallet added the chain but is still on another one; the inner error is
    // wrapped once more by the catch around wallet_addEthereumChain.
    const error = new UserRejectedRequestError(
      new UserRejectedRequestError(new Error('User rejected switch after adding network.')),
    )
    expect(walletErrorMessage(error, 'switchChain')).toBe(M.addedWithoutSwitch)
    expect(walletErrorMessage(error)).toBe(M.addedWithoutSwitch)
  })

  test('a wallet rejecting wallet_addEthereumChain after 4902 is a rejection (wagmi wraps it in UserRejectedRequestError)', () => {
    const error = new UserRejectedRequestError(providerError(4001, 'User rejected the request.'))
    expect(walletErrorMessage(error, 'switchChain')).toBe(M.userRejected)
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
      expect(walletErrorMessage(new SwitchChainError(raw), 'switchChain'), String(raw.code)).toBe(
        M.switchNotSupported,
      )
    }
  })

  test('an unsupported-method error outside a chain switch is not reported as a switching problem', () => {
    const error = providerError(4200, 'The requested method is not supported')
    expect(walletErrorMessage(error)).toBe(M.unknown)
  })

  test('switching to a chain the app does not configure (SwitchChainError wrapping ChainNotConfiguredError) says the network is not available', () => {
    // What wagmi's injected and mock connectors throw for a chain missing from the config.
    const error = new SwitchChainError(new ChainNotConfiguredError())
    expect(walletErrorMessage(error, 'switchChain')).toBe(M.chainNotConfigured)
    expect(walletErrorMessage(new ChainNotConfiguredError())).toBe(M.chainNotConfigured)
  })

  test('a chain the wallet does not know (4902 from the wallet) says it could not be added', () => {
    expect(walletErrorMessage(providerError(4902, 'Unrecognized chain ID "0x7a6a".'), 'switchChain')).toBe(
      M.chainUnknown,
    )
  })

  test('any other switch failure (SwitchChainError, whose own code is 4902) is not blamed on an unknown chain', () => {
    const error = new SwitchChainError(providerError(-32603, 'Internal JSON-RPC error.'))
    expect(error.code).toBe(4902)
    expect(walletErrorMessage(error, 'switchChain')).toBe(M.unknown)
  })

  test('no wallet (ConnectorNotFoundError, ProviderNotFoundError) says no wallet was found', () => {
    expect(walletErrorMessage(new ConnectorNotFoundError())).toBe(M.noWallet)
    expect(walletErrorMessage(new ProviderNotFoundError())).toBe(M.noWallet)
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
