import {
  BYTES32_PATTERN,
  type GlossaryTermId,
  glossaryEntry,
  glossaryPath,
  MAIN_NAV,
  type ProposalState,
  type PublicConfig,
  STATE_LABELS,
  shortenAddress,
  timeLine,
} from '@guildhall/core'

/**
 * The static app shell the server writes into index.html's #root, so a phone paints the header (and on
 * the Overview, the DAO's name and description: its largest text) before the JavaScript has loaded.
 * React's first render replaces it in one commit. The markup is the React components' own
 * (apps/web/src/app/layout.tsx, features/overview/dao-summary.tsx), so nothing moves when that happens;
 * e2e/tests/shell.spec.ts checks it. The connect button's place is held by an invisible copy of the
 * stand-in button (same size, whatever the fonts), which can be neither seen, focused nor clicked before
 * the app can handle the click.
 */
export function renderAppShell(
  config: Pick<PublicConfig, 'dao'> & Partial<Pick<PublicConfig, 'signIn'>>,
  url: string,
  page = '',
): string {
  const pathname = (url.split(/[?#]/)[0] ?? '/').toLowerCase()
  const link = (to: string, end: boolean, className: string, label: string) => {
    // React Router's NavLink: active on `to` itself, and unless `end`, on the paths beneath it.
    const active = pathname === to || (!end && pathname.startsWith(`${to}/`))
    const classes = [className, active ? 'active' : ''].filter(Boolean).join(' ')
    return `<a${active ? ' aria-current="page"' : ''} class="${classes}" href="${escapeHtml(to)}" data-discover="true">${escapeHtml(label)}</a>`
  }
  const header =
    '<header class="header">' +
    link('/', true, 'brand', config.dao.name) +
    `<nav class="nav" aria-label="Main">${MAIN_NAV.map((item) => link(item.to, item.end, '', item.label)).join('')}</nav>` +
    '<div class="connect"><div class="connect-slot">' +
    '<button type="button" class="connect-stand-in" style="visibility:hidden" tabindex="-1">Connect Wallet</button>' +
    '</div></div>' +
    // The signed-in line's place, empty until the session is known (as in React's first render).
    (config.signIn ? '<div class="session"></div>' : '') +
    '</header><div class="notices" aria-live="assertive"></div>'
  const { name, description } = config.dao
  const content =
    pathname === '/'
      ? '<article class="page"><header class="page-header">' +
        `<h1>${escapeHtml(name)}</h1>` +
        (description ? `<p class="lead">${escapeHtml(description)}</p>` : '') +
        '</header></article>'
      : page
  return `${header}<main class="main">${content}</main>`
}

// A proposal's page: /proposals/<EIP-712 digest, lower-case hex>, the only form the API answers.
const PROPOSAL_PAGE = /^\/proposals\/([^/]+)\/?$/

/** The proposal id of a proposal's page, or undefined for any other page. */
export function proposalPageId(url: string): string | undefined {
  const id = PROPOSAL_PAGE.exec(url.split(/[?#]/)[0] ?? '')?.[1]
  return id !== undefined && BYTES32_PATTERN.test(id) ? id : undefined
}

/**
 * A proposal page's heading (its state, title and byline), as features/proposals/proposal-page.tsx draws
 * it: the page's largest text paints with the shell, and the app, which waits for the page's code and
 * data before its first render on such a page (main.tsx), puts the same heading in the same place. The
 * byline's relative time is told from the server's clock, as the page tells it from the API's `now`.
 */
export function renderProposalHeader(proposal: {
  state: ProposalState
  title: string
  author: string
  start: number
  end: number
  snapshot: number
  now: number
}): string {
  return (
    '<article class="page"><p><a href="/proposals" data-discover="true">← Proposals</a></p>' +
    '<header class="page-header">' +
    `<span class="state state-${proposal.state}">${STATE_LABELS[proposal.state]}</span>` +
    `<h1>${escapeHtml(proposal.title)}</h1>` +
    `<p class="muted">By ${escapeHtml(shortenAddress(proposal.author))} · ` +
    `<span>${escapeHtml(timeLine(proposal, proposal.now))}</span> · ` +
    `${renderTerm('snapshot-block', `snapshot block ${proposal.snapshot}`)}</p>` +
    '</header></article>'
  )
}

/**
 * A word of governance with its explanation, as the web app's `Term` (apps/web/src/components/term.tsx)
 * draws it: a link to its glossary entry, described by its short explanation, which CSS shows on hover
 * and focus before the app's code runs.
 */
function renderTerm(id: GlossaryTermId, text: string): string {
  const tipId = `shell-term-${id}`
  return (
    `<span class="term"><a class="term-link" aria-describedby="${tipId}" href="${glossaryPath(id)}" data-discover="true">` +
    `${escapeHtml(text)}</a><span class="term-tip" role="tooltip" id="${tipId}">` +
    `${escapeHtml(glossaryEntry(id).short)}</span></span>`
  )
}

/**
 * `<link rel="preload">` for the data the page at `url` starts with, so the browser fetches it while the
 * JavaScript downloads, not after the page's code has run (a proposal's heading is its largest text). The
 * page's own fetch() then takes the preloaded answer: same URL, CORS mode, same-origin credentials.
 */
export function renderDataPreloads(url: string): string {
  const id = proposalPageId(url)
  return id ? `<link rel="preload" href="/api/proposals/${id}" as="fetch" crossorigin>` : ''
}

/**
 * `<link rel="alternate">` to the Atom feeds of the page at `url` (ADR 055), so a feed reader finds them from
 * the page: the proposals' on the Overview and the proposal pages, on a proposal's page its discussion's, and
 * the topics' on the discussion pages.
 */
export function renderFeedLinks(url: string, daoName: string): string {
  const pathname = (url.split(/[?#]/)[0] ?? '/').toLowerCase()
  const feed = (href: string, title: string) =>
    `<link rel="alternate" type="application/atom+xml" href="${escapeHtml(href)}" title="${escapeHtml(title)}">`
  const links: string[] = []
  const id = proposalPageId(url)
  if (id) links.push(feed(`/feeds/proposals/${id}/discussion.atom`, 'This proposal’s discussion'))
  if (pathname === '/' || pathname === '/proposals' || pathname.startsWith('/proposals/'))
    links.push(feed('/feeds/proposals.atom', `${daoName}: proposals`))
  if (pathname === '/discussions' || pathname.startsWith('/discussions/'))
    links.push(feed('/feeds/topics.atom', `${daoName}: discussions`))
  return links.join('')
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text safe as HTML element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)
}
