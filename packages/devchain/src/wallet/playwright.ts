import type { Page } from '@playwright/test'
import {
  type AddChainBehaviour,
  type Hex,
  type MethodMatcher,
  type RecordedRequest,
  type RpcBinding,
  type ScriptedError,
  TEST_WALLET_RPC_BINDING,
  type TestWalletChain,
  type TestWalletControl,
  type TestWalletState,
} from './anvil-provider.ts'
import { type TestWalletInjectOptions, testWalletInitScript } from './inject.ts'

type ControlMethod = {
  [K in keyof TestWalletControl]: TestWalletControl[K] extends (...args: never[]) => unknown ? K : never
}[keyof TestWalletControl]

/**
 * Lets the test wallet in `page` reach its node from the test process, as an extension reaches it from
 * outside the page: the app's Content-Security-Policy, which governs the page's own requests, does not
 * apply to it. Call before the wallet's init script is added.
 */
export async function exposeTestWalletRpc(page: Pick<Page, 'exposeBinding'>): Promise<void> {
  const send: RpcBinding = async (url, body) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })
    return { status: response.status, text: await response.text() }
  }
  await page.exposeBinding(TEST_WALLET_RPC_BINDING, (_source, url: string, body: string) => send(url, body))
}

/** Node-side handle on the injected test wallet of one page; every method is a `page.evaluate`. */
export class TestWallet {
  private constructor(
    readonly page: Page,
    readonly options: TestWalletInjectOptions,
  ) {}

  /** Adds the wallet to `page` before any page script runs, on this and every later navigation/reload. */
  static async install(page: Page, options: TestWalletInjectOptions): Promise<TestWallet> {
    if (!options.absent) await exposeTestWalletRpc(page)
    await page.addInitScript({ content: testWalletInitScript(options) })
    return new TestWallet(page, options)
  }

  private async call<K extends ControlMethod>(
    name: K,
    ...args: Parameters<TestWalletControl[K]>
  ): Promise<Awaited<ReturnType<TestWalletControl[K]>>> {
    return this.page.evaluate(
      ({ name, args }) => {
        const control = (window as unknown as { __testWallet?: Record<string, (...a: unknown[]) => unknown> })
          .__testWallet
        if (!control) throw new Error('test wallet is not installed in this page (absent, or not loaded yet)')
        const fn = control[name]
        if (typeof fn !== 'function') throw new Error(`test wallet has no control method ${name}`)
        return fn(...args)
      },
      { name: name as string, args: args as unknown[] },
    ) as Promise<Awaited<ReturnType<TestWalletControl[K]>>>
  }

  /** The next matching request fails with `code` (default 4001) after the error delay. */
  rejectNext(method: MethodMatcher, code = 4001, message?: string): Promise<void> {
    return this.call('rejectNext', method, code, message)
  }

  /** The next matching request fails with this error after the error delay. */
  failNext(method: MethodMatcher, error: ScriptedError): Promise<void> {
    return this.call('failNext', method, error)
  }

  /** The next matching request stays pending until `release()`. */
  holdNext(method: MethodMatcher): Promise<void> {
    return this.call('holdNext', method)
  }

  /** Lets held requests proceed, or fail with `error`; resolves to how many were released. */
  release(method?: MethodMatcher, error?: ScriptedError): Promise<number> {
    return this.call('release', method, error)
  }

  /** Methods of the requests currently held. */
  held(): Promise<string[]> {
    return this.call('held')
  }

  /** Replaces the accounts (first = active); emits `accountsChanged` when connected. */
  setAccounts(accounts: Hex[]): Promise<void> {
    return this.call('setAccounts', accounts)
  }

  /** Switches chain from the wallet side; emits `chainChanged`. */
  switchChain(chainId: number): Promise<void> {
    return this.call('switchChain', chainId)
  }

  /** Makes the wallet know a chain, without switching. */
  addChain(chain: TestWalletChain): Promise<void> {
    return this.call('addChain', chain)
  }

  /** Forgets a non-current chain so the next switch to it fails with 4902. */
  forgetChain(chainId: number): Promise<void> {
    return this.call('forgetChain', chainId)
  }

  /** Emits `disconnect` (default 4900); 1013 keeps the accounts, anything else drops the connection. */
  emitDisconnect(code?: number, message?: string): Promise<void> {
    return this.call('emitDisconnect', code, message)
  }

  /** Emits `connect` with the current chain. */
  emitConnect(): Promise<void> {
    return this.call('emitConnect')
  }

  /** What the next `wallet_addEthereumChain` does: 'switch' (default), 'add-only', 'reject'. */
  setNextAddChainBehaviour(behaviour: AddChainBehaviour): Promise<void> {
    return this.call('setNextAddChainBehaviour', behaviour)
  }

  /** Current wallet state (connected, accounts, chain). */
  state(): Promise<TestWalletState> {
    return this.call('state')
  }

  /** Requests recorded since the last page load (the log does not survive reloads), optionally by method. */
  async requests(method?: string): Promise<RecordedRequest[]> {
    const all = await this.page.evaluate(
      () => (window as unknown as { __testWallet?: TestWalletControl }).__testWallet?.requests ?? [],
    )
    return method === undefined ? all : all.filter((r) => r.method === method)
  }

  /** Params of every `wallet_watchAsset` since the last page load. */
  watchedAssets(): Promise<unknown[]> {
    return this.page.evaluate(
      () => (window as unknown as { __testWallet?: TestWalletControl }).__testWallet?.watchedAssets ?? [],
    )
  }

  /** Params of every `wallet_addEthereumChain` since the last page load. */
  addChainRequests(): Promise<unknown[]> {
    return this.page.evaluate(
      () => (window as unknown as { __testWallet?: TestWalletControl }).__testWallet?.addChainRequests ?? [],
    )
  }

  /** Empties the recorded requests. */
  clearRequests(): Promise<void> {
    return this.call('clearRequests')
  }

  /** Waits until the dapp has sent `method` to the wallet (since the last page load). */
  async waitForRequest(method: string, options: { timeout?: number } = {}): Promise<RecordedRequest> {
    const handle = await this.page.waitForFunction(
      (m) =>
        (window as unknown as { __testWallet?: TestWalletControl }).__testWallet?.requests.find(
          (r) => r.method === m,
        ),
      method,
      { timeout: options.timeout ?? 10_000 },
    )
    return (await handle.jsonValue()) as RecordedRequest
  }
}
