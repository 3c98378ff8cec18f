/**
 * The main navigation, in order. The web app's header renders it with React Router's NavLink, and the
 * server renders the same links into index.html's app shell (apps/api/src/web/app-shell.ts), so the two
 * cannot drift apart. `end`: active only on exactly `to`, not on the paths beneath it.
 */
export const MAIN_NAV: ReadonlyArray<{ to: string; label: string; end: boolean }> = [
  { to: '/', label: 'Overview', end: true },
  { to: '/proposals', label: 'Proposals', end: false },
  { to: '/discussions', label: 'Discussions', end: false },
  { to: '/members', label: 'Members', end: false },
  { to: '/treasury', label: 'Treasury', end: false },
]
