// How a proposal's place in time reads, in the web app's proposal pages and in the server's shell of a
// proposal's page (apps/api/src/web/app-shell.ts), which must say the same.
import type { ProposalState } from './tally.ts'

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' })
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
]

/** "in 3 hours", "2 days ago": `at` relative to `now` (unix seconds). */
export function relativeTime(at: number, now: number): string {
  const delta = at - now
  const [unit, size] = UNITS.find(([, size]) => Math.abs(delta) >= size) ?? ['second', 1]
  return relative.format(Math.round(delta / size), unit)
}

export const STATE_LABELS: Record<ProposalState, string> = {
  pending: 'Pending',
  active: 'Active',
  closed: 'Closed',
  final: 'Final',
}

/** One line saying where a proposal stands in time. */
export function timeLine(
  proposal: { state: ProposalState; start: number; end: number },
  now: number,
): string {
  switch (proposal.state) {
    case 'pending':
      return `Voting starts ${relativeTime(proposal.start, now)}`
    case 'active':
      return `Voting ends ${relativeTime(proposal.end, now)}`
    case 'closed':
      return `Voting ended ${relativeTime(proposal.end, now)}; the result becomes final in a few minutes`
    case 'final':
      return `Voting ended ${relativeTime(proposal.end, now)}`
  }
}
