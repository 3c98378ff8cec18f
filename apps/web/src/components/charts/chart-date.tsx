/** Below this span the dates carry their time of day too (a young DAO's history fits in a day)… */
const DAY_SECONDS = 86_400
/** …and below this one, the seconds. */
const HOUR_SECONDS = 3_600

/**
 * A point in time as a chart says it: the date and, when the whole series spans less than a day, the time
 * of day (with seconds under an hour), so that its labels differ. `timeZone` for tests; the reader's by
 * default.
 */
export function chartDate(
  seconds: number,
  spanSeconds: number,
  timeZone?: string,
): { date: string; time: string | null } {
  const at = new Date(seconds * 1000)
  const date = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone })
  const time = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    ...(spanSeconds < HOUR_SECONDS ? { second: '2-digit' } : {}),
    timeZone,
  })
  return { date: date.format(at), time: spanSeconds < DAY_SECONDS ? time.format(at) : null }
}

/** `chartDate` on one line: "Nov 27, 2026" or "Nov 27, 2026, 12:05 PM". */
export function chartWhen(seconds: number, spanSeconds: number): string {
  const { date, time } = chartDate(seconds, spanSeconds)
  return time ? `${date}, ${time}` : date
}

/** A date of a chart, its time of day (if any) on a line of its own beside the plot. */
export function ChartDate({ seconds, span }: { seconds: number; span: number }) {
  const { date, time } = chartDate(seconds, span)
  return (
    <time dateTime={new Date(seconds * 1000).toISOString()}>
      <span>{date}</span>
      {time ? <span>{time}</span> : null}
    </time>
  )
}
