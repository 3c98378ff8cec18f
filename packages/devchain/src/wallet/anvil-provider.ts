// An EIP-1193 wallet backed by anvil's unlocked accounts (or by a signer of its own), scriptable from tests.
// One job that reads best whole, over 400 lines on purpose: the provider is one serialised function (below).
//
// `createAnvilProvider` must stay SELF-CONTAINED: no imports, no references to anything at module scope.
// inject.ts serialises it with Function.prototype.toString() into a Playwright init script, so only
// what is inside the function body reaches the browser. Types below are erased and therefore safe.

export type Hex = `0x${string}`

/** Sends one JSON-RPC body to a node from outside the page: its HTTP status and response text. */
export type RpcBinding = (url: string, body: string) => Promise<{ status: number; text: string }>

/** The page binding (window.__testWalletRpc) the test wallet sends its node requests through, when present. */
export const TEST_WALLET_RPC_BINDING = '__testWalletRpc'

/** A chain the wallet knows. */
export type TestWalletChain = { chainId: number; rpcUrl: string; name: string }

/** What `wallet_addEthereumChain` does next: add and switch (MetaMask), add but stay, or refuse (4001). */
export type AddChainBehaviour = 'switch' | 'add-only' | 'reject'

export type AnvilProviderOptions = {
  /** Chains the wallet knows; the first one is current. */
  chains: TestWalletChain[]
  /** Anvil's unlocked accounts; the first one is active. */
  accounts: Hex[]
  /** Start already connected (permission granted), as after an earlier visit. */
  connected?: boolean
  /** Delay before any wallet-generated error (default 250). < 50 ms leaves RainbowKit's spinner stuck. */
  errorDelayMs?: number
  /** localStorage key under which connected state, accounts and chains survive a reload (off if unset). */
  persistKey?: string
  /**
   * Signs in the wallet instead of on the node, for an RPC that refuses the node's unlocked accounts
   * (the app's development wallet). Not serialisable: the injected test wallet leaves it out.
   */
  signer?: WalletSigner
}

/** A signing request for `address`; `rpc` reaches the wallet's current chain. */
export type WalletSignerRequest = {
  method: string
  params: unknown
  address: Hex
  rpc: (method: string, params: unknown[]) => Promise<unknown>
}

/** Answers personal_sign, eth_sign*, eth_signTypedData* and eth_sendTransaction; throws EIP-1193 errors. */
export type WalletSigner = { request(args: WalletSignerRequest): Promise<unknown> }

export type RecordedRequest = { method: string; params: unknown; at: number }

export type ScriptedError = { code: number; message?: string; data?: unknown }

export type TestWalletState = {
  connected: boolean
  accounts: Hex[]
  chainId: number
  chains: TestWalletChain[]
}

/** A method name, `'*'` for any, `'connect'` for eth_requestAccounts + wallet_requestPermissions, or a list. */
export type MethodMatcher = string | string[]

/** Scripting surface, exposed to tests as `window.__testWallet`. */
export type TestWalletControl = {
  /** Every request the dapp made, in order. */
  requests: RecordedRequest[]
  /** Params of every `wallet_watchAsset`. */
  watchedAssets: unknown[]
  /** Params of every `wallet_addEthereumChain`. */
  addChainRequests: unknown[]
  /** The next matching request fails with `code` (default 4001 user rejected) after `errorDelayMs`. */
  rejectNext(method: MethodMatcher, code?: number, message?: string): void
  /** The next matching request fails with this error after `errorDelayMs`. */
  failNext(method: MethodMatcher, error: ScriptedError): void
  /** The next matching request stays pending until `release()`; same-kind prompts meanwhile get -32002. */
  holdNext(method: MethodMatcher): void
  /** Lets held requests proceed (or fail with `error`); returns how many were released. */
  release(method?: MethodMatcher, error?: ScriptedError): number
  /** Methods of the requests currently held. */
  held(): string[]
  /** Replaces the accounts (first = active) and emits `accountsChanged` when connected. */
  setAccounts(accounts: Hex[]): void
  /** Switches chain as if the user did it in the wallet; emits `chainChanged`. */
  switchChain(chainId: number): void
  /** Adds a chain the wallet knows, without switching. */
  addChain(chain: TestWalletChain): void
  /** Forgets a (non-current) chain, so the next switch to it fails with 4902. */
  forgetChain(chainId: number): void
  /** Emits `disconnect` (default code 4900); any code but 1013 also drops the connection. */
  emitDisconnect(code?: number, message?: string): void
  /** Emits `connect` with the current chain id (the wallet is back online). */
  emitConnect(): void
  /** What the next `wallet_addEthereumChain` does; resets to 'switch' after one use. */
  setNextAddChainBehaviour(behaviour: AddChainBehaviour): void
  /** Snapshot of the wallet state. */
  state(): TestWalletState
  /** Empties `requests`, `watchedAssets` and `addChainRequests`. */
  clearRequests(): void
}

export type RequestArguments = { method: string; params?: unknown }
// EIP-1193 results and event payloads are untyped; `any` keeps wagmi/viem listener types assignable.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Listener = (...args: any[]) => void

export type AnvilProvider = {
  // biome-ignore lint/suspicious/noExplicitAny: EIP-1193 request results are untyped
  request(args: RequestArguments): Promise<any>
  on(event: string, listener: Listener): AnvilProvider
  once(event: string, listener: Listener): AnvilProvider
  removeListener(event: string, listener: Listener): AnvilProvider
  off(event: string, listener: Listener): AnvilProvider
  isGuildhallTestWallet: true
  control: TestWalletControl
}

/** Creates an EIP-1193 provider that signs and sends through anvil's unlocked accounts, or `options.signer`. */
export function createAnvilProvider(options: AnvilProviderOptions): AnvilProvider {
  type RpcError = Error & { code: number; data?: unknown }
  type Rule = { methods: string[]; kind: 'fail' | 'hold'; error?: ScriptedError }
  type Held = { method: string; proceed: () => void; fail: (error: RpcError) => void }

  const firstOption = Array.isArray(options?.chains) ? options.chains[0] : undefined
  if (!firstOption) throw new Error('createAnvilProvider: at least one chain is required')
  const firstChain: TestWalletChain = firstOption
  const errorDelayMs = options.errorDelayMs ?? 250
  const persistKey = options.persistKey

  let chains: TestWalletChain[] = options.chains.map((c) => ({ ...c }))
  let chainId = firstChain.chainId
  let accounts: Hex[] = (options.accounts ?? []).slice()
  let connected = options.connected === true
  let nextAddChainBehaviour: AddChainBehaviour = 'switch'
  let rpcId = 0
  const rules: Rule[] = []
  const heldRequests: Held[] = []
  const listeners = new Map<string, Set<Listener>>()

  const toHex = (n: number): Hex => `0x${n.toString(16)}`
  const sameAddress = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase()
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  const findChain = (id: number) => chains.find((c) => c.chainId === id)
  const currentChain = () => findChain(chainId) ?? firstChain
  const visibleAccounts = (): Hex[] => (connected ? accounts.slice() : [])

  // localStorage throws on opaque origins (about:blank, data:) and does not exist in Node 20.
  const storage = (() => {
    try {
      const s = persistKey ? (globalThis as { localStorage?: Storage }).localStorage : undefined
      return s ?? undefined
    } catch {
      return undefined
    }
  })()

  function persist() {
    if (!storage || !persistKey) return
    try {
      storage.setItem(persistKey, JSON.stringify({ connected, accounts, chainId, chains }))
    } catch {
      // quota / security errors: persistence is best-effort
    }
  }

  // A real wallet remembers the per-origin permission, the selected account and network across reloads.
  function restore() {
    if (!storage || !persistKey) return
    try {
      const raw = storage.getItem(persistKey)
      if (!raw) return
      const saved = JSON.parse(raw) as Partial<TestWalletState>
      const savedFirst = Array.isArray(saved.chains) ? saved.chains[0] : undefined
      if (saved.chains && savedFirst) chains = saved.chains
      if (typeof saved.chainId === 'number' && findChain(saved.chainId)) chainId = saved.chainId
      else chainId = (savedFirst ?? firstChain).chainId
      if (Array.isArray(saved.accounts)) accounts = saved.accounts
      if (typeof saved.connected === 'boolean') connected = saved.connected
    } catch {
      // corrupt entry: start from the options
    }
  }
  restore()

  function rpcError(code: number, message?: string, data?: unknown): RpcError {
    const error = new Error(message ?? defaultMessage(code)) as RpcError
    error.code = code
    if (data !== undefined) error.data = data
    return error
  }

  function defaultMessage(code: number, method?: string): string {
    switch (code) {
      case 4001:
        return 'User rejected the request.'
      case 4100:
        return 'The requested account and/or method has not been authorized by the user.'
      case 4200:
        return 'The requested method is not supported by this Ethereum provider.'
      case 4900:
        return 'The provider is disconnected from all chains.'
      case 4901:
        return 'The provider is disconnected from the specified chain.'
      case 4902:
        return 'Unrecognized chain ID.'
      case 1013:
        return 'Disconnected from chain. Attempting to connect.'
      case -32002: {
        const origin = (globalThis as { location?: { origin?: string } }).location?.origin ?? 'this origin'
        return `Request of type '${method ?? 'unknown'}' already pending for origin ${origin}. Please wait.`
      }
      case -32602:
        return 'Invalid method parameters.'
      case -32603:
        return 'Internal JSON-RPC error.'
      default:
        return 'Test wallet error.'
    }
  }

  // Wallet-made errors come late on purpose: RainbowKit's connect flow misses a rejection under ~50 ms.
  async function walletError(code: number, message?: string, data?: unknown): Promise<never> {
    if (errorDelayMs > 0) await sleep(errorDelayMs)
    throw rpcError(code, message, data)
  }

  function emit(event: string, ...args: unknown[]) {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(...args)
      } catch (error) {
        // A failing dapp listener must not break the wallet (MetaMask swallows them as well).
        console.error(`[test wallet] '${event}' listener threw`, error)
      }
    }
  }

  function expand(matcher: MethodMatcher): string[] {
    const list = Array.isArray(matcher) ? matcher : [matcher]
    return list.flatMap((m) => (m === 'connect' ? ['eth_requestAccounts', 'wallet_requestPermissions'] : [m]))
  }
  const matches = (methods: string[], method: string) => methods.includes('*') || methods.includes(method)

  // Requests that open a prompt in a real wallet; a second one while the first is open gets -32002.
  function promptGroup(method: string): string | undefined {
    if (method === 'eth_requestAccounts' || method === 'wallet_requestPermissions') return 'connect'
    if (method === 'wallet_switchEthereumChain' || method === 'wallet_addEthereumChain') return 'chain'
    return undefined
  }

  function setChain(id: number) {
    if (id === chainId) return
    chainId = id
    persist()
    emit('chainChanged', toHex(id))
  }

  function grant(): Hex[] {
    const before = visibleAccounts()
    connected = true
    persist()
    const after = visibleAccounts()
    // MetaMask's inpage provider emits accountsChanged before answering the request.
    if (before.join() !== after.join()) emit('accountsChanged', after)
    return after
  }

  function permission() {
    const origin = (globalThis as { location?: { origin?: string } }).location?.origin ?? 'test'
    return {
      id: `test-wallet-eth-accounts`,
      parentCapability: 'eth_accounts',
      invoker: origin,
      date: Date.now(),
      caveats: [{ type: 'restrictReturnedAccounts', value: visibleAccounts() }],
    }
  }

  function firstParam(params: unknown): Record<string, unknown> | undefined {
    const first = Array.isArray(params) ? params[0] : undefined
    return first && typeof first === 'object' ? (first as Record<string, unknown>) : undefined
  }

  function parseChainId(value: unknown): number | undefined {
    if (typeof value === 'number' && Number.isInteger(value)) return value
    if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return Number.parseInt(value, 16)
    return undefined
  }

  async function forward(method: string, params: unknown): Promise<unknown> {
    let body: { result?: unknown; error?: { code?: number; message?: string; data?: unknown } }
    try {
      const payload = JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params: params ?? [] })
      // A real wallet reaches its node from the extension, outside the page's Content-Security-Policy;
      // in a browser test the page's binding does the same (TEST_WALLET_RPC_BINDING). Else plain fetch.
      const binding = (globalThis as { __testWalletRpc?: RpcBinding }).__testWalletRpc
      const response = binding
        ? await binding(currentChain().rpcUrl, payload)
        : await fetch(currentChain().rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: payload,
          }).then(async (r) => ({ status: r.status, text: await r.text() }))
      const { text } = response
      try {
        body = JSON.parse(text)
      } catch {
        throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`)
      }
    } catch (error) {
      throw rpcError(-32603, `Internal JSON-RPC error: ${(error as Error)?.message ?? String(error)}`)
    }
    if (body.error) {
      const { code, message, data } = body.error
      throw rpcError(typeof code === 'number' ? code : -32603, message, data)
    }
    return body.result
  }

  // The address a signing method acts for, to check it is one the dapp was given.
  function signer(method: string, params: unknown): unknown {
    const list = Array.isArray(params) ? params : []
    if (method === 'personal_sign') return list[1]
    if (method === 'eth_sendTransaction') return firstParam(params)?.from
    return list[0] // eth_sign, eth_signTypedData*
  }

  async function handle(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
        return grant()
      case 'wallet_requestPermissions':
        grant()
        return [permission()]
      case 'wallet_getPermissions':
        return connected ? [permission()] : []
      case 'wallet_revokePermissions':
        if (connected) {
          connected = false
          persist()
          emit('accountsChanged', [])
        }
        return null
      case 'eth_accounts':
        return visibleAccounts()
      case 'eth_coinbase':
        return visibleAccounts()[0] ?? null
      case 'eth_chainId':
        return toHex(chainId)
      case 'net_version':
        return String(chainId)
      case 'wallet_switchEthereumChain': {
        const raw = firstParam(params)?.chainId
        const id = parseChainId(raw)
        if (id === undefined) return walletError(-32602, `Invalid chainId: ${String(raw)}`)
        if (!findChain(id)) {
          return walletError(
            4902,
            `Unrecognized chain ID "${toHex(id)}". Try adding the chain using wallet_addEthereumChain first.`,
          )
        }
        setChain(id)
        return null
      }
      case 'wallet_addEthereumChain': {
        const p = firstParam(params)
        const id = parseChainId(p?.chainId)
        const rpcUrl = Array.isArray(p?.rpcUrls) ? p.rpcUrls[0] : undefined
        control.addChainRequests.push(clone(params))
        const behaviour = nextAddChainBehaviour
        nextAddChainBehaviour = 'switch'
        if (id === undefined || typeof rpcUrl !== 'string') {
          return walletError(
            -32602,
            'Invalid wallet_addEthereumChain parameters: chainId and rpcUrls[0] required',
          )
        }
        if (behaviour === 'reject') return walletError(4001)
        if (!findChain(id)) {
          const name = typeof p?.chainName === 'string' ? p.chainName : `Chain ${id}`
          chains.push({ chainId: id, rpcUrl, name })
          persist()
        }
        // MetaMask asks to switch right after adding; 'add-only' is a user declining that second prompt.
        if (behaviour === 'switch') setChain(id)
        return null
      }
      case 'wallet_watchAsset':
        control.watchedAssets.push(clone(params))
        return true
      case 'personal_sign':
      case 'eth_sign':
      case 'eth_signTypedData':
      case 'eth_signTypedData_v3':
      case 'eth_signTypedData_v4':
      case 'eth_sendTransaction': {
        const address = signer(method, params)
        if (!connected || (address !== undefined && !accounts.some((a) => sameAddress(address, a)))) {
          return walletError(4100)
        }
        if (options.signer) {
          const rpc = (name: string, list: unknown[]) => forward(name, list)
          return options.signer.request({ method, params, address: (address ?? accounts[0]) as Hex, rpc })
        }
        if (method === 'eth_sendTransaction') {
          const tx = firstParam(params)
          if (tx && tx.from === undefined) return forward(method, [{ ...tx, from: accounts[0] }])
        }
        return forward(method, params)
      }
      default:
        return forward(method, params)
    }
  }

  function clone(value: unknown): unknown {
    try {
      return value === undefined ? undefined : JSON.parse(JSON.stringify(value))
    } catch {
      return value
    }
  }

  function takeRule(kind: Rule['kind'], method: string): Rule | undefined {
    const index = rules.findIndex((r) => r.kind === kind && matches(r.methods, method))
    return index >= 0 ? rules.splice(index, 1)[0] : undefined
  }

  async function request(args: RequestArguments): Promise<unknown> {
    if (!args || typeof args !== 'object' || typeof args.method !== 'string') {
      throw rpcError(-32600, 'Invalid request: expected an object with a string "method".')
    }
    const { method, params } = args
    control.requests.push({ method, params: clone(params), at: Date.now() })

    // Precedence: an explicit failure, then "prompt already open" (-32002), then an explicit hold.
    const failRule = takeRule('fail', method)
    if (failRule) {
      const { code, message, data } = failRule.error ?? { code: 4001 }
      return walletError(code, message ?? defaultMessage(code, method), data)
    }
    const group = promptGroup(method)
    if (group && heldRequests.some((h) => promptGroup(h.method) === group)) {
      return walletError(-32002, defaultMessage(-32002, method))
    }
    if (takeRule('hold', method)) {
      return new Promise((resolve, reject) => {
        heldRequests.push({
          method,
          proceed: () => handle(method, params).then(resolve, reject),
          fail: reject,
        })
      })
    }
    return handle(method, params)
  }

  const control: TestWalletControl = {
    requests: [],
    watchedAssets: [],
    addChainRequests: [],
    rejectNext(method, code = 4001, message) {
      rules.push({ methods: expand(method), kind: 'fail', error: { code, message } })
    },
    failNext(method, error) {
      rules.push({ methods: expand(method), kind: 'fail', error })
    },
    holdNext(method) {
      rules.push({ methods: expand(method), kind: 'hold' })
    },
    release(method, error) {
      const methods = method === undefined ? ['*'] : expand(method)
      const released = heldRequests.filter((h) => matches(methods, h.method))
      for (const h of released) heldRequests.splice(heldRequests.indexOf(h), 1)
      for (const h of released) {
        if (error)
          h.fail(rpcError(error.code, error.message ?? defaultMessage(error.code, h.method), error.data))
        else h.proceed()
      }
      return released.length
    },
    held() {
      return heldRequests.map((h) => h.method)
    },
    setAccounts(next) {
      accounts = next.slice()
      persist()
      // Emitted even for the same list: the dapp must cope (RainbowKit's SIWE signs out on any change).
      if (connected) emit('accountsChanged', accounts.slice())
    },
    switchChain(id) {
      if (!findChain(id)) throw new Error(`test wallet: chain ${id} is not known (addChain it first)`)
      setChain(id)
    },
    addChain(chain) {
      if (!findChain(chain.chainId)) chains.push({ ...chain })
      persist()
    },
    forgetChain(id) {
      if (id === chainId) throw new Error(`test wallet: cannot forget the current chain ${id}`)
      chains = chains.filter((c) => c.chainId !== id)
      persist()
    },
    emitDisconnect(code, message) {
      const c = code ?? 4900
      // 1013 is MetaMask's "temporarily disconnected": the permission stays, wagmi keeps the session.
      if (c !== 1013) {
        connected = false
        persist()
      }
      emit('disconnect', rpcError(c, message))
    },
    emitConnect() {
      emit('connect', { chainId: toHex(chainId) })
    },
    setNextAddChainBehaviour(behaviour) {
      nextAddChainBehaviour = behaviour
    },
    state() {
      return { connected, accounts: accounts.slice(), chainId, chains: chains.map((c) => ({ ...c })) }
    },
    clearRequests() {
      control.requests.length = 0
      control.watchedAssets.length = 0
      control.addChainRequests.length = 0
    },
  }

  const provider: AnvilProvider = {
    isGuildhallTestWallet: true,
    control,
    request,
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<Listener>()
      listeners.set(event, set)
      set.add(listener)
      return provider
    },
    once(event, listener) {
      const wrapped: Listener = (...args) => {
        provider.removeListener(event, wrapped)
        listener(...args)
      }
      return provider.on(event, wrapped)
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener)
      return provider
    },
    off(event, listener) {
      return provider.removeListener(event, listener)
    },
  }
  return provider
}
