import { lazy } from 'react'
import { BrowserRouter, matchPath, Route, Routes } from 'react-router'
import { Layout } from './layout.tsx'
import { PlaceholderPage } from './placeholder-page.tsx'
import { OverviewPage } from './routes/overview-page.tsx'

// Declarative routes (ADR 012): the data router's loaders and actions are unused here, and it costs
// ≈ 16 KiB gzip more on the first page. Navigations run in a transition, so the current page stays until
// the next one's chunk has loaded.
const pageCode = {
  proposals: () => import('../features/proposals/proposals-page.tsx'),
  newProposal: () => import('../features/proposals/new-proposal-page.tsx'),
  proposal: () => import('../features/proposals/proposal-page.tsx'),
  sessions: () => import('../features/auth/sessions-page.tsx'),
}
const ProposalsPage = lazy(() => pageCode.proposals().then((m) => ({ default: m.ProposalsPage })))
const NewProposalPage = lazy(() => pageCode.newProposal().then((m) => ({ default: m.NewProposalPage })))
const ProposalPage = lazy(() => pageCode.proposal().then((m) => ({ default: m.ProposalPage })))
const SessionsPage = lazy(() => pageCode.sessions().then((m) => ({ default: m.SessionsPage })))

// The proposal page requests its markdown renderer itself when its code runs; opened directly, both start
// at once.
const LAZY_PAGES: Array<[path: string, load: () => Promise<unknown>]> = [
  ['/proposals', pageCode.proposals],
  ['/proposals/new', pageCode.newProposal],
  ['/proposals/:id', () => Promise.all([pageCode.proposal(), import('../features/proposals/markdown.tsx')])],
  ['/account/sessions', pageCode.sessions],
]

/**
 * Starts fetching the code of the page the visitor opened, if it is one that loads with its route, so it
 * downloads beside the app's own code instead of after React's first render has reached the route.
 */
export function startPageCode(pathname: string): void {
  // Static paths first, as the router ranks them ("/proposals/new" is not a proposal id).
  const page = LAZY_PAGES.find(([path]) => matchPath(path, pathname))
  page?.[1]().catch(() => {}) // a failed load is retried, and reported, when the route renders
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
          <Route path="proposals" element={<ProposalsPage />} />
          <Route path="proposals/new" element={<NewProposalPage />} />
          <Route path="proposals/:id" element={<ProposalPage />} />
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
          <Route path="account/sessions" element={<SessionsPage />} />
          <Route
            path="*"
            element={<PlaceholderPage title="Page not found" text="There is no page at this address." />}
          />
        </Route>
      </Routes>
    </BrowserRouter>
  )
}
