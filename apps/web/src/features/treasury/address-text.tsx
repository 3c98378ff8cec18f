import { shortenAddress } from '@guildhall/core'

const ADDRESS = /0x[0-9a-fA-F]{40}/g

/**
 * A sentence of the server's (a history row's detail, a warning) with each address in it shortened, whole
 * on its line, the full address on hover: a full address would break across lines on a phone.
 */
export function AddressText({ text }: { text: string }) {
  const parts: (string | { address: string })[] = []
  let at = 0
  for (const match of text.matchAll(ADDRESS)) {
    parts.push(text.slice(at, match.index), { address: match[0] })
    at = match.index + match[0].length
  }
  parts.push(text.slice(at))
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, in order
          <span key={index} className="address-short" title={part.address}>
            {shortenAddress(part.address)}
          </span>
        ),
      )}
    </>
  )
}
