import type { Config, CreateStorageParameters } from 'wagmi'

type BaseStorage = NonNullable<CreateStorageParameters['storage']>
type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** wagmi's storage prefix (createStorage's default): its keys are `wagmi.<key>`. */
const PREFIX = 'wagmi.'
/** wagmi 2's "do not reconnect on load" flag of an injected connector. */
const DISCONNECTED = '.disconnected'
/** wagmi 2's "connected once" flag of its targetless injected connector (id `injected`). */
const TARGETLESS_CONNECTED = `${PREFIX}injected.connected`
/** The spec's remembered-connection key (wagmi 1's) of an injected connector, in wagmi's storage. */
const rememberedKey = (connectorId: string) => `${connectorId}.shimDisconnect`

/** The spec's key behind one of wagmi 2's flags, and whether the flag means the opposite ("disconnected"). */
function specKeyBehind(key: string, isInjected: (connectorId: string) => boolean) {
  if (key === TARGETLESS_CONNECTED) return { key: `${PREFIX}${rememberedKey('injected')}`, inverse: false }
  if (!key.startsWith(PREFIX) || !key.endsWith(DISCONNECTED)) return undefined
  const connectorId = key.slice(PREFIX.length, -DISCONNECTED.length)
  return isInjected(connectorId)
    ? { key: `${PREFIX}${rememberedKey(connectorId)}`, inverse: true }
    : undefined
}

/**
 * The storage given to wagmi's createStorage (ADR 042): an injected connector's remembered connection is
 * the spec's key `<connector id>.shimDisconnect`, which wagmi 2 reads through its own flags: its
 * `<id>.disconnected` reads as the key's inverse and `injected.connected` as the key. So a connector never
 * connected here reads as disconnected, and wagmi's reconnect on load passes it by even when the wallet
 * still grants the site. wagmi's writes of those flags are dropped: it also clears `<id>.disconnected` for
 * a connector it does not connect (another connector over the same wallet, on the wallet's
 * `accountsChanged`), so the key follows wagmi's connections instead (rememberWhileConnected). Every other
 * key, and the flags of connectors that are not injected, pass through. Writes fail quietly, as in
 * wagmi's default storage (a full or blocked localStorage).
 */
export function rememberedConnectionStorage(
  storage: KeyValueStorage,
  isInjected: (connectorId: string) => boolean,
): BaseStorage {
  const write = (apply: () => void) => {
    try {
      apply()
    } catch {}
  }
  return {
    getItem(key) {
      const spec = specKeyBehind(key, isInjected)
      if (!spec) return storage.getItem(key)
      const remembered = storage.getItem(spec.key) !== null
      return remembered !== spec.inverse ? 'true' : null
    },
    setItem(key, value) {
      if (!specKeyBehind(key, isInjected)) write(() => storage.setItem(key, value))
    },
    removeItem(key) {
      if (!specKeyBehind(key, isInjected)) write(() => storage.removeItem(key))
    },
  }
}

/**
 * Keeps the spec's key set exactly while wagmi holds a connection of the injected connector: set when it
 * connects (the user's pick, a reconnect on load, the wallet's own `connect` event), removed when the
 * connection ends (Disconnect, the wallet's `disconnect` event, which wagmi already ignores for code 1013
 * while the wallet keeps an account, or its accounts emptied). Only settled states count: a reconnect on
 * load that fails forgets nothing, as the wallet may simply not have loaded yet.
 */
export function rememberWhileConnected(config: Config): () => void {
  let held = new Set<string>()
  return config.subscribe(
    (state) => state,
    (state) => {
      if (state.status !== 'connected' && state.status !== 'disconnected') return
      const connected = new Set<string>()
      if (state.status === 'connected') {
        for (const { connector } of state.connections.values()) {
          if (connector.type === 'injected') connected.add(connector.id)
        }
      }
      for (const id of connected) if (!held.has(id)) void config.storage?.setItem(rememberedKey(id), true)
      for (const id of held) if (!connected.has(id)) void config.storage?.removeItem(rememberedKey(id))
      held = connected
    },
  )
}
