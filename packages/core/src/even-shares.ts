/**
 * `items` cut into at most `parts` consecutive shares, as even as they divide: the first shares take one more
 * when they do not. How the signature pools (the API's workers, the browser recount's) hand out a turn's checks.
 */
export function evenShares<T>(items: readonly T[], parts: number): T[][] {
  const count = Math.min(parts, items.length)
  const shares: T[][] = []
  let from = 0
  for (let share = 0; share < count; share++) {
    const size = Math.floor(items.length / count) + (share < items.length % count ? 1 : 0)
    shares.push(items.slice(from, from + size))
    from += size
  }
  return shares
}
