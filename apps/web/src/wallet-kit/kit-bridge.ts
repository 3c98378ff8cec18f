// What the rest of the app may ask of the wallet kit (RainbowKit), which loads on demand (ADR 008). The kit
// registers its functions here once mounted; calls made before that wait for it.
import type { useAddRecentTransaction as useRainbowKitAddRecentTransaction } from '@rainbow-me/rainbowkit'

type AddRecentTransaction = ReturnType<typeof useRainbowKitAddRecentTransaction>
type Transaction = Parameters<AddRecentTransaction>[0]

let addRecentTransaction: AddRecentTransaction | undefined
const queued: Transaction[] = []

/** Called by the kit when it mounts (and with undefined when it unmounts). */
export function registerKitFunctions(functions: { addRecentTransaction: AddRecentTransaction | undefined }) {
  addRecentTransaction = functions.addRecentTransaction
  if (!addRecentTransaction) return
  for (let tx = queued.shift(); tx; tx = queued.shift()) addRecentTransaction(tx)
}

/** RainbowKit's `useAddRecentTransaction`, usable before the kit has loaded (the entry is queued). */
export function useAddRecentTransaction(): AddRecentTransaction {
  return addToRecentTransactions
}

function addToRecentTransactions(transaction: Transaction): void {
  if (addRecentTransaction) addRecentTransaction(transaction)
  else queued.push(transaction)
}
