/** The parts of a `,`-separated variable, trimmed, empty ones dropped. */
export const csv = (value: string) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
