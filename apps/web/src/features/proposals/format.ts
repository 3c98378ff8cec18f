/** The exact time in the reader's own time zone, for a tooltip and for screen readers. */
export const exactTime = (at: number) =>
  new Date(at * 1000).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })
