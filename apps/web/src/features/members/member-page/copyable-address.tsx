import { useState } from 'react'
import type { Address } from 'viem'
import { FullAddress } from '../../../components/full-address.tsx'

/** The full address, with a button that copies it. */
export function CopyableAddress({ address }: { address: Address }) {
  const [copied, setCopied] = useState<boolean>()
  return (
    <p className="member-full-address">
      <FullAddress address={address} testId="member-address" />{' '}
      <button
        type="button"
        className="button"
        onClick={() =>
          navigator.clipboard.writeText(address).then(
            () => setCopied(true),
            () => setCopied(false),
          )
        }
      >
        Copy address
      </button>
      <span role="status" className="muted">
        {copied === undefined
          ? ''
          : copied
            ? 'Copied.'
            : 'The browser did not allow copying; select the address instead.'}
      </span>
    </p>
  )
}
