// What the rest of the app may ask of the wallet kit (RainbowKit), which loads on demand (ADR 008). The kit
// registers its functions here once mounted; calls made before that wait for it.
import type { useAddRecentTransaction as useRainbowKitAddRecentTransaction } from '@rainbow-me/rainbowkit'

type AddRecentTransaction = ReturnType<typeof useRainbowKitAddRecentTransaction>
type Transaction = Parameters<AddRecentTransaction>[0]

type KitFunctions = {
  addRecentTransaction: AddRecentTransaction | undefined
  /** RainbowKit's, undefined while a wallet is connected (there is nothing to connect). */
  openConnectModal: (() => void) | undefined
}

let kit: KitFunctions = { addRecentTransaction: undefined, openConnectModal: undefined }
const queued: Transaction[] = []
let connectModalRequested = false

/** Called by the kit once it is ready (and with undefined functions when it unmounts). */
export function registerKitFunctions(functions: KitFunctions) {
  kit = functions
  if (kit.addRecentTransaction) {
    for (let tx = queued.shift(); tx; tx = queued.shift()) kit.addRecentTransaction(tx)
  }
  // Nothing asked, or the kit is not there (unmounting).
  if (!connectModalRequested || !kit.addRecentTransaction) return
  connectModalRequested = false
  kit.openConnectModal?.() // undefined while a wallet is connected: nothing to open
}

/** The stand-in "Connect Wallet" was pressed: open the connect modal now, or as soon as the kit is ready. */
export function requestConnectModal(): void {
  if (kit.openConnectModal) kit.openConnectModal()
  else connectModalRequested = true
}

/**
 * Adds a transaction to the kit's recent transactions (its account modal), or, while the kit has not
 * loaded, queues it until the kit registers. A plain function: it needs nothing from React.
 */
export function queueRecentTransaction(transaction: Transaction): void {
  if (kit.addRecentTransaction) kit.addRecentTransaction(transaction)
  else queued.push(transaction)
}
