import { shortenAddress } from '@guildhall/core'
import { useAccount } from 'wagmi'
import { selectDevWalletAccount } from '../../lib/dev-wallet-account.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'

/** While connected with the development wallet: which demo account you are, and a way to be another. */
export function DevAccountPicker() {
  const { devWallet } = usePublicConfig()
  const { address, connector } = useAccount()
  if (!devWallet || connector?.id !== 'development' || !address) return null
  return (
    <section className="dev-bar" aria-label="Development wallet">
      <label htmlFor="dev-account">Development wallet: you are</label>
      <select
        id="dev-account"
        value={address}
        onChange={(event) => selectDevWalletAccount(event.target.value as `0x${string}`, devWallet.accounts)}
      >
        {devWallet.accounts.map((account) => (
          <option key={account.address} value={account.address}>
            {account.label
              ? `${account.label} (${shortenAddress(account.address)})`
              : shortenAddress(account.address)}
          </option>
        ))}
      </select>
    </section>
  )
}
