/** The exact time in the reader's own time zone, for a tooltip and for screen readers. */
export const exactTime = (at: number) =>
  new Date(at * 1000).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })

/** "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? ''
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}
