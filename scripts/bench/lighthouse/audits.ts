// What keeps a Lighthouse category below 100, read from Lighthouse's result: the failing audits with the
// elements or resources they name, and the requests that left 127.0.0.1.
import type { Result } from 'lighthouse'

export interface FailingAudit {
  id: string
  title: string
  /** Lighthouse's summary, e.g. "Potential savings of 320 KiB". */
  displayValue?: string
  /** The elements (selector and snippet) or resources (URL) the audit names, the first few, with the finding. */
  items: Array<{ target: string; finding?: string }>
}

/** At most this many elements or resources per failing audit. */
export const ITEMS_PER_AUDIT = 5

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`

/** One audited element or resource of a details table: what it is, and what is wrong with it or what it costs. */
function describeItem(item: Record<string, unknown>): FailingAudit['items'][number] | undefined {
  const node = (item.node ?? item.element) as
    | { selector?: string; snippet?: string; nodeLabel?: string; explanation?: string }
    | undefined
  if (node && typeof node === 'object' && (node.selector || node.snippet)) {
    const label = node.nodeLabel ? ` “${node.nodeLabel.slice(0, 60)}”` : ''
    // axe's explanation opens with "Fix any of the following:"; the finding is the line after.
    const finding = node.explanation?.split('\n').find((line) => line.startsWith('  '))
    const target = `${node.selector ?? ''} ${node.snippet ?? ''}${label}`.trim()
    return finding ? { target, finding: finding.trim() } : { target }
  }
  const source = item.url ?? item.source
  const url =
    typeof source === 'string'
      ? source
      : source && typeof source === 'object' && 'url' in source && typeof source.url === 'string'
        ? source.url
        : undefined
  if (!url) return undefined
  const costs = [
    typeof item.wastedBytes === 'number' ? `${kib(item.wastedBytes)} unused or compressible` : undefined,
    typeof item.wastedMs === 'number' ? `${Math.round(item.wastedMs)} ms` : undefined,
    typeof item.total === 'number' ? `${Math.round(item.total)} ms main thread` : undefined,
  ].filter(Boolean)
  return costs.length ? { target: url, finding: costs.join(', ') } : { target: url }
}

function auditItems(audit: Result['audits'][string]): FailingAudit['items'] {
  type Details = { type?: string; items?: unknown[] }
  const details = audit.details as Details | undefined
  const topItems = Array.isArray(details?.items) ? details.items : []
  // A "list" (e.g. the LCP element and its phases) nests tables; their rows are the items.
  const items =
    details?.type === 'list' ? topItems.flatMap((table) => (table as Details).items ?? []) : topItems
  const described: FailingAudit['items'] = []
  for (const item of items) {
    if (item && typeof item === 'object') {
      const found = describeItem(item as Record<string, unknown>)
      if (found && !described.some((other) => other.target === found.target)) described.push(found)
    }
    if (described.length === ITEMS_PER_AUDIT) break
  }
  return described
}

/** Requests that left 127.0.0.1: the host resolver rules fail them, which some audits may hold against the page. */
export function offOriginRequests(lhr: Result): string[] {
  const details = lhr.audits['network-requests']?.details as { items?: Array<{ url?: unknown }> } | undefined
  const urls = (details?.items ?? []).map((item) => item.url).filter((url) => typeof url === 'string')
  return urls.filter((url) => {
    const { protocol, hostname } = new URL(url)
    return protocol.startsWith('http') && hostname !== '127.0.0.1'
  })
}

/**
 * The audits that pull a category down: scored audits below Lighthouse's "pass" line (0.9), as its
 * report shows them; the performance metrics themselves are in `metrics`.
 */
export function failingAudits(lhr: Result, category: string, metricIds: string[]): FailingAudit[] {
  const refs = lhr.categories[category]?.auditRefs ?? []
  const failing: FailingAudit[] = []
  for (const ref of refs) {
    const audit = lhr.audits[ref.id]
    // The "hidden" group holds what the report itself does not show (insights duplicating diagnostics, TTI).
    if (ref.group === 'hidden' || metricIds.includes(ref.id)) continue
    if (!audit || audit.score === null || audit.score >= 0.9) continue
    if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue
    failing.push({
      id: ref.id,
      title: audit.title,
      ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
      items: auditItems(audit),
    })
  }
  return failing
}
