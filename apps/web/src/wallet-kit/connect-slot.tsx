import type { PublicConfig } from '@guildhall/core'
import {
  type ComponentType,
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
} from 'react'
import { type Config, useAccount, useConfig } from 'wagmi'
import { useSignIn } from '../features/auth/auth-provider.tsx'
import { usePublicConfig } from '../lib/public-config-context.tsx'
import { requestConnectModal } from './kit-bridge.ts'
import type { WalletKitProps } from './wallet-kit.tsx'
import './connect-slot.css'

/** Connector ids of the last visit's connections: with any, the kit loads at once to restore them. */
export const RememberedConnectorsContext = createContext<ReadonlySet<string>>(new Set())

/** How long after a press on the stand-in ends (pointer up or cancelled) its click may still come. */
const PRESS_END_GRACE_MS = 500

type KitModule = typeof import('./wallet-kit.tsx')
let kitModule: Promise<KitModule> | undefined
let loadedKit: ComponentType<WalletKitProps> | undefined

/** Loads the wallet kit and adds its connectors to wagmi (once); a failed load may be retried. */
function loadWalletKit(
  wagmiConfig: Config,
  config: PublicConfig,
  remembered: ReadonlySet<string>,
): Promise<KitModule> {
  kitModule ??= import('./wallet-kit.tsx').then(
    async (module) => {
      // Connectors first, so the kit's first render already lists every wallet. A remembered connection
      // the kit restores is waited for, so its first render shows the account, not "Connect Wallet".
      const adding = module.addWalletConnectors(wagmiConfig, config, remembered)
      if (remembered.size > 0) await adding
      loadedKit = module.WalletKit
      return module
    },
    (error) => {
      kitModule = undefined
      throw error
    },
  )
  return kitModule
}

/**
 * The connect button's place in the header. Until the wallet kit (RainbowKit) is there, a stand-in
 * "Connect Wallet" button takes its place. The kit loads at once when a wallet is connected or remembered,
 * and otherwise right after the first render (after the content's own requests), or again on intent
 * (pointer over, focus, touch) if that load failed; a click on the stand-in opens the connect modal once
 * it is there. ADRs 008 and 013.
 */
export function ConnectSlot() {
  const config = usePublicConfig()
  const wagmiConfig = useConfig()
  const remembered = useContext(RememberedConnectorsContext)
  const { status } = useAccount()
  const signIn = useSignIn()
  const [Kit, setKit] = useState(() => loadedKit)
  // The stand-in stays over the kit's button until RainbowKit shows it (one frame after mounting).
  const [kitShown, setKitShown] = useState(() => loadedKit !== undefined)
  const [failed, setFailed] = useState(false)
  const standIn = useRef<HTMLButtonElement>(null)

  const load = useCallback(() => {
    setFailed(false)
    loadWalletKit(wagmiConfig, config, remembered).then(
      // RainbowKit's first render (provider, button, modals) is the biggest of the page: as a transition,
      // React renders it in slices and stays responsive to taps and typing meanwhile. The stand-in keeps
      // its place until the kit shows its button, and a press on it opens the modal once the kit is there.
      (module) => startTransition(() => setKit(() => module.WalletKit)),
      () => setFailed(true),
    )
  }, [wagmiConfig, config, remembered])

  // A press on the stand-in (pointer down, not yet up) keeps it in place even once RainbowKit's button is
  // ready: if it went away beneath the press, the release would land on its replacement, the click on
  // their common ancestor, and nothing would open. The click itself then asks for the connect modal.
  const [pressing, setPressing] = useState(false)
  const standInShown = !kitShown || pressing
  const pressEndTimer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(pressEndTimer.current), [])
  const startPress = () => {
    setPressing(true)
    // Listening from the press itself, not from an effect after the next render: a quick press released
    // off the button would otherwise end unseen and keep the stand-in until the next click. A press that
    // ends off the button sends it no click; a touch's click follows its pointerup late.
    const ended = () => {
      window.removeEventListener('pointerup', ended, true)
      window.removeEventListener('pointercancel', ended, true)
      clearTimeout(pressEndTimer.current)
      pressEndTimer.current = setTimeout(() => setPressing(false), PRESS_END_GRACE_MS)
    }
    window.addEventListener('pointerup', ended, true)
    window.addEventListener('pointercancel', ended, true)
  }

  const onKitShown = useCallback(() => setKitShown(true), [])
  // Keyboard users keep their place: when the focused stand-in goes, the focus moves to the real button.
  // React detaches the ref before it removes the element, so the focus is still on it here.
  const standInRef = useCallback((element: HTMLButtonElement | null) => {
    if (!element && standIn.current && document.activeElement === standIn.current) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[data-testid="rk-connect-button"]')?.focus(),
      )
    }
    standIn.current = element
  }, [])

  // A connected wallet (e.g. an EIP-6963 one wagmi restored itself) or a remembered one needs the real
  // account button now.
  const needed = status === 'connected' || remembered.size > 0
  useEffect(() => {
    if (needed) load()
  }, [needed, load])

  // Otherwise it loads right after the first render (ADR 013). The content has painted by then (the
  // server's shell) and sent its own requests, which go first; a tap on "Connect Wallet" soon after does
  // not wait for a download. Waiting for an idle moment instead left a phone tap 0.5–2 s after the content
  // with a one-second wait for the modal.
  useEffect(() => {
    const timer = setTimeout(load, 0)
    return () => clearTimeout(timer)
  }, [load])

  // Like RainbowKit's button: hidden (but kept in place) while the sign-in status is loading, and while
  // a remembered connection waits for the kit, so "Connect Wallet" does not flash before the account.
  const hidden = signIn?.status === 'loading' || needed
  return (
    <div className="connect-slot">
      {Kit && (
        // Out of the flow until RainbowKit shows its button: the stand-in keeps its place meanwhile.
        <div className={standInShown ? 'connect-kit-pending' : undefined}>
          <Kit onShown={onKitShown} />
        </div>
      )}
      {standInShown && (
        <button
          ref={standInRef}
          type="button"
          className="connect-stand-in"
          style={{ background: config.accentColor, opacity: hidden ? 0 : undefined }}
          aria-hidden={hidden || Kit !== undefined || undefined}
          // Hidden from assistive technology, it must not take the focus either (axe: aria-hidden-focus).
          tabIndex={hidden || Kit !== undefined ? -1 : undefined}
          onPointerEnter={load}
          onTouchStart={load}
          onFocus={load}
          onPointerDown={startPress}
          onClick={() => {
            requestConnectModal()
            setPressing(false)
            load()
          }}
        >
          Connect Wallet
        </button>
      )}
      {failed && (
        <p role="alert" className="connect-stand-in-error">
          The wallet connection could not load. Check your connection, then press Connect Wallet again.
        </p>
      )}
    </div>
  )
}
