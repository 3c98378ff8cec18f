import { lazy } from 'react'
import { BrowserRouter, Route, Routes } from 'react-router'
import { Layout } from './layout.tsx'
import { PlaceholderPage } from './placeholder-page.tsx'
import { OverviewPage } from './routes/overview-page.tsx'

// Declarative routes (ADR 012): the data router's loaders and actions are unused here, and it costs
// ≈ 16 KiB gzip more on the first page. Navigations run in a transition, so the current page stays until
// the next one's chunk has loaded.
const ProposalsPage = lazy(() =>
  import('../features/proposals/proposals-page.tsx').then((m) => ({ default: m.ProposalsPage })),
)
const NewProposalPage = lazy(() =>
  import('../features/proposals/new-proposal-page.tsx').then((m) => ({ default: m.NewProposalPage })),
)
const ProposalPage = lazy(() =>
  import('../features/proposals/proposal-page.tsx').then((m) => ({ default: m.ProposalPage })),
)
const SessionsPage = lazy(() =>
  import('../features/auth/sessions-page.tsx').then((m) => ({ default: m.SessionsPage })),
)

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
