import { createPublicClient, type Hex, http, toHex, verifyMessage, verifyTypedData } from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AnvilInstance } from '../anvil.ts'
import { type AnvilProvider, createAnvilProvider, type TestWalletChain } from './anvil-provider.ts'
import { startWalletChains } from './wallet-test-helpers.ts'

let chainA: AnvilInstance
let chainB: AnvilInstance
let accounts: Hex[]
let chainsOf: () => TestWalletChain[]
let stopChains: (() => Promise<void>) | undefined

beforeAll(async () => {
  ;({ chainA, chainB, accounts, chainsOf, stop: stopChains } = await startWalletChains())
}, 30_000)

afterAll(async () => {
  await stopChains?.()
})

function wallet(extra: Partial<Parameters<typeof createAnvilProvider>[0]> = {}): AnvilProvider {
  return createAnvilProvider({ chains: chainsOf(), accounts: accounts.slice(0, 2), ...extra })
}

function collect(provider: AnvilProvider, event: string): unknown[] {
  const seen: unknown[] = []
  provider.on(event, (payload: unknown) => seen.push(payload))
  return seen
}

async function rejection(promise: Promise<unknown>): Promise<{ error: any; ms: number }> {
  const started = performance.now()
  try {
    await promise
  } catch (error) {
    return { error, ms: performance.now() - started }
  }
  throw new Error('expected the request to fail')
}

// --- tests ---------------------------------------------------------------------------------------------

describe('createAnvilProvider against anvil', () => {
  let provider: AnvilProvider
  beforeEach(() => {
    provider = wallet()
  })

  it('connects with eth_requestAccounts and emits accountsChanged', async () => {
    const changes = collect(provider, 'accountsChanged')
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual(accounts.slice(0, 2))
    expect(await provider.request({ method: 'eth_accounts' })).toEqual(accounts.slice(0, 2))
    expect(changes).toEqual([accounts.slice(0, 2)])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await provider.request({ method: 'net_version' })).toBe('31337')
  })

  it('grants, reports and revokes permissions', async () => {
    const permissions = await provider.request({
      method: 'wallet_requestPermissions',
      params: [{ eth_accounts: {} }],
    })
    expect(permissions[0].parentCapability).toBe('eth_accounts')
    expect(permissions[0].caveats[0].value).toEqual(accounts.slice(0, 2))
    expect(await provider.request({ method: 'wallet_getPermissions' })).toHaveLength(1)
    const changes = collect(provider, 'accountsChanged')
    expect(
      await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] }),
    ).toBeNull()
    expect(changes).toEqual([[]])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(await provider.request({ method: 'wallet_getPermissions' })).toEqual([])
  })

  it('refuses to sign before connecting (4100)', async () => {
    const { error } = await rejection(
      provider.request({ method: 'personal_sign', params: [toHex('hi'), accounts[0]] }),
    )
    expect(error.code).toBe(4100)
  })

  it('personal_sign is signed by anvil and verifies', async () => {
    await provider.request({ method: 'eth_requestAccounts' })
    const address = accounts[0]!
    const message = 'Sign in to Guildhall'
    const signature = await provider.request({ method: 'personal_sign', params: [toHex(message), address] })
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    expect(await verifyMessage({ address: accounts[1]!, message, signature })).toBe(false)
  })

  it('eth_signTypedData_v4 is signed by anvil and verifies', async () => {
    await provider.request({ method: 'eth_requestAccounts' })
    const address = accounts[0]!
    const typedData = {
      domain: { name: 'Guildhall', version: '1', chainId: 31337 },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Vote: [
          { name: 'proposal', type: 'uint256' },
          { name: 'choice', type: 'uint8' },
          { name: 'voter', type: 'address' },
        ],
      },
      primaryType: 'Vote',
      message: { proposal: '7', choice: 1, voter: address },
    } as const
    const signature = await provider.request({
      method: 'eth_signTypedData_v4',
      params: [address, JSON.stringify(typedData)],
    })
    const { EIP712Domain: _, ...types } = typedData.types
    expect(
      await verifyTypedData({
        address,
        domain: typedData.domain,
        types,
        primaryType: 'Vote',
        message: { proposal: 7n, choice: 1, voter: address },
        signature,
      }),
    ).toBe(true)
  })

  it('eth_sendTransaction is mined (from defaults to the active account)', async () => {
    await provider.request({ method: 'eth_requestAccounts' })
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ to: accounts[1], value: '0x1' }],
    })
    // Automine answers with the hash before the block is sealed: wait for the receipt, don't read it once.
    const receipt = await createPublicClient({ transport: http(chainA.url) }).waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
    })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(accounts[0]?.toLowerCase())
  })

  it('switches to a known chain, emits chainChanged and routes RPC there', async () => {
    await provider.request({ method: 'eth_requestAccounts' })
    const changes = collect(provider, 'chainChanged')
    expect(
      await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] }),
    ).toBeNull()
    expect(changes).toEqual(['0x7a6a'])
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a6a')
    const hash = await provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: accounts[0], to: accounts[1], value: '0x1' }],
    })
    const tx = await provider.request({ method: 'eth_getTransactionByHash', params: [hash] })
    expect(Number(tx.chainId)).toBe(31338)
    // Switching to the current chain is a no-op without an event.
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })
    expect(changes).toHaveLength(1)
  })

  it('an unknown chain fails with 4902 after the error delay', async () => {
    const { error, ms } = await rejection(
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    )
    expect(error).toBeInstanceOf(Error)
    expect(error.code).toBe(4902)
    expect(error.message).toMatch(/^Unrecognized chain ID/)
    expect(ms).toBeGreaterThanOrEqual(200)
  })

  it('wallet_addEthereumChain adds then switches, like MetaMask', async () => {
    provider.control.forgetChain(31338)
    const { error } = await rejection(
      provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] }),
    )
    expect(error.code).toBe(4902)
    const changes = collect(provider, 'chainChanged')
    const params = {
      chainId: '0x7a6a',
      chainName: 'Anvil B again',
      rpcUrls: [chainB.url],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    }
    expect(await provider.request({ method: 'wallet_addEthereumChain', params: [params] })).toBeNull()
    expect(changes).toEqual(['0x7a6a'])
    expect(provider.control.addChainRequests).toEqual([[params]])
    expect(provider.control.state().chains.map((c) => c.name)).toContain('Anvil B again')
    expect(await provider.request({ method: 'eth_blockNumber' })).toMatch(/^0x/)
  })

  it("setNextAddChainBehaviour('add-only') adds but stays; 'reject' fails with 4001", async () => {
    provider.control.forgetChain(31338)
    provider.control.setNextAddChainBehaviour('add-only')
    const params = [{ chainId: '0x7a6a', chainName: 'B', rpcUrls: [chainB.url] }]
    await provider.request({ method: 'wallet_addEthereumChain', params })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(provider.control.state().chains).toHaveLength(2)

    provider.control.setNextAddChainBehaviour('reject')
    const { error, ms } = await rejection(provider.request({ method: 'wallet_addEthereumChain', params }))
    expect(error.code).toBe(4001)
    expect(ms).toBeGreaterThanOrEqual(200)
    // One-shot: the next add switches again.
    await provider.request({ method: 'wallet_addEthereumChain', params })
    expect(await provider.request({ method: 'eth_chainId' })).toBe('0x7a6a')
  })

  it('rejectNext(4001) fails the next matching request once, after >= 200 ms', async () => {
    provider.control.rejectNext('connect')
    const { error, ms } = await rejection(provider.request({ method: 'eth_requestAccounts' }))
    expect(error.code).toBe(4001)
    expect(error.message).toBe('User rejected the request.')
    expect(ms).toBeGreaterThanOrEqual(200)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
    expect(await provider.request({ method: 'eth_requestAccounts' })).toHaveLength(2)
  })

  it('rejectNext / failNext with other codes, and errorDelayMs is configurable', async () => {
    const fast = wallet({ errorDelayMs: 0 })
    fast.control.rejectNext('*', -32002)
    const pending = await rejection(fast.request({ method: 'eth_requestAccounts' }))
    expect(pending.error.code).toBe(-32002)
    expect(pending.error.message).toMatch(/already pending/)
    fast.control.failNext('eth_chainId', { code: -32603, message: 'boom', data: { x: 1 } })
    const failed = await rejection(fast.request({ method: 'eth_chainId' }))
    expect([failed.error.code, failed.error.message, failed.error.data]).toEqual([-32603, 'boom', { x: 1 }])
    expect(failed.ms).toBeLessThan(100)
  })

  it('holdNext keeps a request pending until release; a second prompt gets -32002', async () => {
    provider.control.holdNext('eth_requestAccounts')
    let settled = false
    const first = provider.request({ method: 'eth_requestAccounts' }).finally(() => {
      settled = true
    })
    await new Promise((r) => setTimeout(r, 50))
    expect(settled).toBe(false)
    expect(provider.control.held()).toEqual(['eth_requestAccounts'])
    const second = await rejection(provider.request({ method: 'wallet_requestPermissions', params: [{}] }))
    expect(second.error.code).toBe(-32002)
    expect(provider.control.release()).toBe(1)
    expect(await first).toEqual(accounts.slice(0, 2))

    provider.control.holdNext('personal_sign')
    const sign = provider.request({ method: 'personal_sign', params: ['0x00', accounts[0]] })
    provider.control.release('personal_sign', { code: 4001 })
    expect((await rejection(sign)).error.code).toBe(4001)
  })

  it('setAccounts emits accountsChanged (when connected)', async () => {
    const changes = collect(provider, 'accountsChanged')
    provider.control.setAccounts([accounts[1]!])
    expect(changes).toEqual([])
    await provider.request({ method: 'eth_requestAccounts' })
    provider.control.setAccounts([accounts[0]!, accounts[1]!])
    provider.control.setAccounts([accounts[0]!, accounts[1]!])
    expect(changes).toEqual([[accounts[1]], accounts.slice(0, 2), accounts.slice(0, 2)])
    expect(await provider.request({ method: 'eth_accounts' })).toEqual(accounts.slice(0, 2))
  })

  it('switchChain from the wallet side emits chainChanged; unknown chain throws', async () => {
    const changes = collect(provider, 'chainChanged')
    provider.control.switchChain(31338)
    expect(changes).toEqual(['0x7a6a'])
    expect(() => provider.control.switchChain(1)).toThrow(/not known/)
    expect(() => provider.control.forgetChain(31338)).toThrow(/current/)
  })

  it('emitDisconnect(1013) keeps the accounts, emitDisconnect() clears them', async () => {
    await provider.request({ method: 'eth_requestAccounts' })
    const events = collect(provider, 'disconnect') as { code: number; message: string }[]
    provider.control.emitDisconnect(1013)
    expect(events[0]?.code).toBe(1013)
    expect(await provider.request({ method: 'eth_accounts' })).toHaveLength(2)
    provider.control.emitDisconnect()
    expect(events[1]?.code).toBe(4900)
    expect(events[1]).toBeInstanceOf(Error)
    expect(await provider.request({ method: 'eth_accounts' })).toEqual([])
  })

  it('records every request, watchAsset params included', async () => {
    const asset = { type: 'ERC20', options: { address: accounts[2], symbol: 'GUILD', decimals: 18 } }
    expect(await provider.request({ method: 'wallet_watchAsset', params: asset })).toBe(true)
    await provider.request({ method: 'eth_chainId' })
    await provider.request({ method: 'eth_blockNumber' })
    expect(provider.control.watchedAssets).toEqual([asset])
    expect(provider.control.requests.map((r) => r.method)).toEqual([
      'wallet_watchAsset',
      'eth_chainId',
      'eth_blockNumber',
    ])
    expect(provider.control.requests[0]?.params).toEqual(asset)
    provider.control.clearRequests()
    expect(provider.control.requests).toEqual([])
  })

  it('re-throws node errors as ProviderRpcError-shaped errors', async () => {
    const { error } = await rejection(provider.request({ method: 'guildhall_noSuchMethod' }))
    expect(error).toBeInstanceOf(Error)
    expect(typeof error.code).toBe('number')
    expect(error.code).toBe(-32601)
    const unreachable = createAnvilProvider({
      chains: [{ chainId: 1, rpcUrl: 'http://127.0.0.1:9', name: 'nowhere' }],
      accounts: [],
    })
    expect((await rejection(unreachable.request({ method: 'eth_blockNumber' }))).error.code).toBe(-32603)
  })
})
