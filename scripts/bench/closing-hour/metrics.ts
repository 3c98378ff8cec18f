// The log lock's figures from each instance's Prometheus endpoint (METRICS_PORT, a loopback listener of its
// own): the hold and wait histograms' sums and counts and the votes accepted, read before and after the timed
// votes. A server without the endpoint (no metrics yet) gives null: the line says it was not measured.

export type LockFigures = { holdSeconds: number; waitSeconds: number; transactions: number; accepted: number }

const sample = (text: string, name: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

/** The figures of one instance's /metrics now; null when it does not answer or lacks the series. */
export async function readLockFigures(metricsPort: number): Promise<LockFigures | null> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) })
    .then((response) => (response.ok ? response.text() : undefined))
    .catch(() => undefined)
  if (text === undefined) return null
  const holdSeconds = sample(text, 'guildhall_log_lock_hold_seconds_sum')
  const waitSeconds = sample(text, 'guildhall_log_lock_wait_seconds_sum')
  const transactions = sample(text, 'guildhall_log_lock_hold_seconds_count')
  // No vote accepted yet: the labelled series is absent, which is 0.
  const accepted = sample(text, 'guildhall_votes_total{outcome="accepted"}') ?? 0
  if (holdSeconds === undefined || waitSeconds === undefined || transactions === undefined) return null
  return { holdSeconds, waitSeconds, transactions, accepted }
}

/** Every instance's figures summed; null when any instance has none. */
export async function readAllLockFigures(ports: number[]): Promise<LockFigures | null> {
  const each = await Promise.all(ports.map(readLockFigures))
  if (each.some((figures) => figures === null)) return null
  return (each as LockFigures[]).reduce((sum, f) => ({
    holdSeconds: sum.holdSeconds + f.holdSeconds,
    waitSeconds: sum.waitSeconds + f.waitSeconds,
    transactions: sum.transactions + f.transactions,
    accepted: sum.accepted + f.accepted,
  }))
}
