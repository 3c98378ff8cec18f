// The development wallet's account switch, apart from the wallet itself: the account picker is on every
// page, while the wallet's code loads with the wallet kit.

type Control = { setAccounts(accounts: `0x${string}`[]): void }

let control: Control | undefined

/** The running development wallet registers here once it exists. */
export function registerDevWallet(wallet: Control): void {
  control = wallet
}

/** Makes `address` the development wallet's active account (emits accountsChanged, like a real wallet). */
export function selectDevWalletAccount(address: `0x${string}`, accounts: { address: string }[]): void {
  const rest = accounts.map((a) => a.address as `0x${string}`).filter((a) => a !== address)
  control?.setAccounts([address, ...rest])
}
