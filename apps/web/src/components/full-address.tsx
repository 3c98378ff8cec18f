/** Where a full address may wrap: after "0x" and its first 20 hex digits, between two halves of 20. */
const HALF = 22

/**
 * An address in full, to read, select and copy whole. It never breaks inside a run of digits: on a line
 * too narrow for it, it wraps once, between its halves (the text stays one string when copied).
 */
export function FullAddress({ address, testId }: { address: string; testId?: string }) {
  return (
    <span className="full-address" data-testid={testId}>
      <span>{address.slice(0, HALF)}</span>
      <wbr />
      <span>{address.slice(HALF)}</span>
    </span>
  )
}
