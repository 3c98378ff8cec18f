// The test wallet serialised: createAnvilProvider rebuilt from its source, and the init script inject.ts
// writes, run in a bare VM context standing in for a page.
import vm from 'node:vm'
import type { Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAnvilProvider, type TestWalletChain } from './anvil-provider.ts'
import { testWalletInitScript } from './inject.ts'
import { startWalletChains } from './wallet-test-helpers.ts'

let accounts: Hex[]
let chainsOf: () => TestWalletChain[]
let stopChains: (() => Promise<void>) | undefined

beforeAll(async () => {
  ;({ accounts, chainsOf, stop: stopChains } = await startWalletChains())
}, 30_000)

afterAll(async () => {
  await stopChains?.()
})

describe('serialisation', () => {
  it('createAnvilProvider survives toString() (no module-scope references)', async () => {
    const rebuilt = new Function(`return (${createAnvilProvider.toString()})`)() as typeof createAnvilProvider
    const provider = rebuilt({ chains: chainsOf(), accounts: accounts.slice(0, 1) })
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual(accounts.slice(0, 1))
    expect(await provider.request({ method: 'eth_blockNumber' })).toMatch(/^0x/)
  })

  // Runs the generated init script in a bare VM context standing in for a page.
  function runInitScript(script: string, storage: Map<string, string>) {
    const window = new EventTarget() as EventTarget & Record<string, any>
    const context = vm.createContext(
      Object.assign(window, {
        window,
        fetch,
        CustomEvent,
        Event,
        console,
        setTimeout,
        clearTimeout,
        location: { origin: 'http://127.0.0.1:1234' },
        localStorage: {
          getItem: (k: string) => storage.get(k) ?? null,
          setItem: (k: string, v: string) => storage.set(k, v),
          removeItem: (k: string) => storage.delete(k),
        },
      }),
    )
    const announced: any[] = []
    window.addEventListener('eip6963:announceProvider', (e) => announced.push((e as CustomEvent).detail))
    vm.runInContext(script, context)
    return { window, announced }
  }

  it('the init script installs window.ethereum, announces EIP-6963 and persists across a reload', async () => {
    const storage = new Map<string, string>()
    const script = testWalletInitScript({ chains: chainsOf(), accounts: accounts.slice(0, 2) })
    const first = runInitScript(script, storage)
    expect(first.window.ethereum.isMetaMask).toBeUndefined()
    first.window.dispatchEvent(new Event('eip6963:requestProvider'))
    expect(first.announced).toHaveLength(2) // at load + on request
    const detail = first.announced[0]
    expect(detail.provider).toBe(first.window.ethereum)
    expect(detail.info).toMatchObject({ name: 'Test Wallet', rdns: 'dev.guildhall.testwallet' })
    expect(detail.info.icon).toMatch(/^data:image\/svg\+xml;base64,/)
    await first.window.ethereum.request({ method: 'eth_requestAccounts' })
    first.window.__testWallet.switchChain(31338)

    const reloaded = runInitScript(script, storage)
    expect(await reloaded.window.ethereum.request({ method: 'eth_accounts' })).toEqual(accounts.slice(0, 2))
    expect(await reloaded.window.ethereum.request({ method: 'eth_chainId' })).toBe('0x7a6a')
    await reloaded.window.ethereum.request({
      method: 'wallet_revokePermissions',
      params: [{ eth_accounts: {} }],
    })
    const again = runInitScript(script, storage)
    expect(await again.window.ethereum.request({ method: 'eth_accounts' })).toEqual([])
  })

  it('announceOnly leaves window.ethereum unset; absent injects nothing', () => {
    const onlyAnnounced = runInitScript(
      testWalletInitScript({ chains: chainsOf(), accounts, announceOnly: true, name: 'Other' }),
      new Map(),
    )
    expect(onlyAnnounced.window.ethereum).toBeUndefined()
    const absent = runInitScript(
      testWalletInitScript({ chains: chainsOf(), accounts, absent: true }),
      new Map(),
    )
    expect(absent.window.ethereum).toBeUndefined()
    expect(absent.window.__testWallet).toBeUndefined()
  })
})
