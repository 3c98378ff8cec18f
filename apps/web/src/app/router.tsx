import type { QueryClient } from '@tanstack/react-query'
import { type ComponentType, createElement, lazy } from 'react'
import { BrowserRouter, matchPath, Route, Routes } from 'react-router'
import { Layout } from './layout.tsx'
import { PlaceholderPage } from './placeholder-page.tsx'
import { OverviewPage } from './routes/overview-page.tsx'

/** A page whose code loads with its route (see routePage). */
type RouteCode = {
  /** The page's component once its code is in. */
  loaded: ComponentType | undefined
  Lazy: ComponentType
  loadCode: () => Promise<unknown>
}

function routePage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  const loadCode = () =>
    load().then((module) => {
      page.loaded = pick(module)
      return module
    })
  const page: Omit<RouteCode, 'loadCode'> & { loadCode: () => Promise<M> } = {
    loaded: undefined,
    Lazy: lazy(() => loadCode().then((module) => ({ default: pick(module) }))),
    loadCode,
  }
  return page
}

/**
 * Once the page's code is in (say, fetched before the first render by startPageCode), the page renders at
 * once rather than through React.lazy, which suspends on its first render whatever the state of the
 * import: a first render could otherwise show the empty fallback for a moment over the server's shell.
 */
function RoutePage({ page }: { page: RouteCode }) {
  return createElement(page.loaded ?? page.Lazy)
}

// Declarative routes (ADR 012): the data router's loaders and actions are unused here, and it costs
// ≈ 16 KiB gzip more on the first page. Navigations run in a transition, so the current page stays until
// the next one's chunk has loaded.
const proposals = routePage(
  () => import('../features/proposals/proposals-page.tsx'),
  (m) => m.ProposalsPage,
)
const newProposal = routePage(
  () => import('../features/proposals/new-proposal-page.tsx'),
  (m) => m.NewProposalPage,
)
const proposal = routePage(
  () => import('../features/proposals/proposal-page.tsx'),
  (m) => m.ProposalPage,
)
const sessions = routePage(
  () => import('../features/auth/sessions-page.tsx'),
  (m) => m.SessionsPage,
)

type PageStart = (params: Record<string, string | undefined>, queryClient: QueryClient) => Promise<unknown>

// A proposal's page, opened directly, fetches its code, its markdown renderer (which the page would
// otherwise request only once its code runs) and the proposal itself (preloaded by the page's head) at once.
const LAZY_PAGES: Array<[path: string, start: PageStart]> = [
  ['/proposals', proposals.loadCode],
  ['/proposals/new', newProposal.loadCode],
  [
    '/proposals/:id',
    ({ id = '' }, queryClient) =>
      Promise.all([
        proposal.loadCode().then((page) => page.prefetchProposal(queryClient, id)),
        import('../features/proposals/markdown.tsx'),
      ]),
  ],
  ['/account/sessions', sessions.loadCode],
]

/**
 * Starts fetching the code (and first data) of the page the visitor opened, if it is one that loads with
 * its route, beside the app's own code instead of after React's first render has reached the route. Settles
 * when they are in; never rejects (a failed load is tried again, and reported, when the route renders).
 */
export function startPageCode(pathname: string, queryClient: QueryClient): Promise<void> {
  // Static paths first, as the router ranks them ("/proposals/new" is not a proposal id).
  for (const [path, start] of LAZY_PAGES) {
    const match = matchPath(path, pathname)
    if (match)
      return start(match.params, queryClient).then(
        () => {},
        () => {},
      )
  }
  return Promise.resolve()
}

/**
 * Routes; pages later issues fill are placeholders that say so. The Overview (the landing page) is in the
 * first chunk; other real pages load with their route.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<OverviewPage />} />
          <Route path="proposals" element={<RoutePage page={proposals} />} />
          <Route path="proposals/new" element={<RoutePage page={newProposal} />} />
          <Route path="proposals/:id" element={<RoutePage page={proposal} />} />
          <Route
            path="members"
            element={
              <PlaceholderPage title="Members" text="The members directory arrives in a later release." />
            }
          />
          <Route
            path="treasury"
            element={<PlaceholderPage title="Treasury" text="Treasury balances arrive in a later release." />}
          />
          <Route path="account/sessions" element={<RoutePage page={sessions} />} />
          <Route
            path="*"
            element={<PlaceholderPage title="Page not found" text="There is no page at this address." />}
          />
        </Route>
      </Routes>
    </BrowserRouter>
  )
}
