// The bench's figures and tables, one way for every section: a spread of samples, latency percentiles,
// rounding, and the plain-text table every report prints.
import type { Latency, Spread } from './schema.ts'

export function spread(samples: number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
  const round = (n: number) => Math.round(n)
  return {
    median: round(median),
    min: round(sorted[0] as number),
    max: round(sorted.at(-1) as number),
    samples: samples.map(round),
  }
}

export function latency(samples: number[]): Latency {
  if (samples.length === 0) return { p50: 0, p99: 0, max: 0 }
  const { median, max } = spread(samples)
  const sorted = [...samples].sort((a, b) => a - b)
  // Nearest rank: the smallest sample at or above 99 % of all samples.
  const p99 = sorted[Math.ceil(0.99 * sorted.length) - 1] as number
  return { p50: median, p99: Math.round(p99), max }
}

export const round1 = (n: number) => Math.round(n * 10) / 10
export const round3 = (n: number) => Math.round(n * 1000) / 1000

/** Rows as columns: the first left-aligned, the others right-aligned. */
export function table(rows: string[][]): string {
  const widths = (rows[0] ?? []).map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)))
  return rows
    .map((row) =>
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col] ?? 0) : cell.padStart(widths[col] ?? 0)))
        .join('   ')
        .trimEnd(),
    )
    .join('\n')
}
