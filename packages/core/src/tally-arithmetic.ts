/**
 * The integer arithmetic the tallies share (ADR 058): splitting a whole into parts that sum to it exactly,
 * and square roots, all in bigint so every server and every recount gets the same units.
 */

/**
 * `total` split in proportion to `parts`: each share rounded down, then the units still missing one each
 * to the largest remainders, equal remainders to the part with the lower `order` (by default its position).
 * The shares sum to `total` exactly (all 0 when the parts sum to 0).
 */
export function largestRemainder(
  total: bigint,
  parts: readonly bigint[],
  order: readonly number[] = parts.map((_, index) => index),
): bigint[] {
  const sum = parts.reduce((acc, part) => acc + part, 0n)
  if (sum === 0n) return parts.map(() => 0n)
  const shares = parts.map((part) => (total * part) / sum)
  const remainders = parts.map((part) => (total * part) % sum)
  let missing = total - shares.reduce((acc, share) => acc + share, 0n)
  const byRemainder = parts
    .map((_, index) => index)
    .sort((a, b) => {
      const ra = remainders[a] ?? 0n
      const rb = remainders[b] ?? 0n
      return ra === rb ? (order[a] ?? a) - (order[b] ?? b) : rb > ra ? 1 : -1
    })
  // Fewer units are missing than there are parts (each share lost less than one), so one pass suffices.
  for (const index of byRemainder) {
    if (missing <= 0n) break
    shares[index] = (shares[index] ?? 0n) + 1n
    missing -= 1n
  }
  return shares
}

/**
 * A weighted ballot's power per picked choice (in the order of `choices`): `power` split by the whole-number
 * `weights` with the largest remainder, so the parts sum to the voter's power exactly, whatever the weights;
 * a unit left between equal remainders goes to the lower choice number, so the order a ballot lists its
 * choices in never moves one.
 */
export function weightedAllocation(
  power: bigint,
  weights: readonly number[],
  choices: readonly number[] = weights.map((_, index) => index + 1),
): bigint[] {
  return largestRemainder(
    power,
    weights.map((weight) => BigInt(weight)),
    choices,
  )
}

/** The largest integer whose square is at most `n` (Newton's method on bigint; exact at any size). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError('isqrt of a negative number')
  if (n < 2n) return n
  // A start above the root (2^ceil(bits/2)) makes Newton's steps decrease monotonically to it.
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const next = (x + n / x) >> 1n
    if (next >= x) return x
    x = next
  }
}

/** Square roots carry 9 decimal digits: the share under the root is scaled by 10¹⁸. */
const QUADRATIC_SCALE = 10n ** 18n

/**
 * A quadratic ballot's square root of the voter's share on each picked choice: sᵢ = isqrt(P·wᵢ·10¹⁸ / Σw),
 * rounded down at each step. A choice's quadratic power is then the square of its sum over voters.
 */
export function quadraticRoots(power: bigint, weights: readonly number[]): bigint[] {
  const sum = weights.reduce((acc, weight) => acc + BigInt(weight), 0n)
  if (sum === 0n) return weights.map(() => 0n)
  return weights.map((weight) => isqrt((power * BigInt(weight) * QUADRATIC_SCALE) / sum))
}
