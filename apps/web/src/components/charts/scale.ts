/** Drawing units of every chart's viewBox; the SVG stretches to its box's width. */
export const CHART_WIDTH = 600
export const CHART_HEIGHT = 160

/**
 * `part / whole` as a number from 0 to 1, for amounts too large for a number (token base units): exact to
 * a millionth, which is below a drawing unit.
 */
export const fraction = (part: bigint, whole: bigint): number =>
  whole <= 0n ? 0 : Number((part * 1_000_000n) / whole) / 1_000_000

/** The largest of `values`, or 0 (Math.max takes no bigints). */
export function largest(values: bigint[]): bigint {
  let top = 0n
  for (const value of values) if (value > top) top = value
  return top
}
