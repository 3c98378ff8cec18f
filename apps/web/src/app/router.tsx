import type { QueryClient } from '@tanstack/react-query'
import { BrowserRouter, matchPath, Route, Routes } from 'react-router'
import { Preloaded, preloadable } from '../lib/preloadable.ts'
import { Layout } from './layout.tsx'
import { NotFoundPage } from './not-found-page.tsx'
import { OverviewPage } from './routes/overview-page.tsx'

// Declarative routes (ADR 012): the data router's loaders and actions are unused here, and it costs
// ≈ 16 KiB gzip more on the first page. Navigations run in a transition, so the current page stays until
// the next one's chunk has loaded.
const proposals = preloadable(
  () => import('../features/proposals/proposals-page.tsx'),
  (m) => m.ProposalsPage,
)
const newProposal = preloadable(
  () => import('../features/proposals/new-proposal-page.tsx'),
  (m) => m.NewProposalPage,
)
const proposal = preloadable(
  () => import('./routes/proposal-page.tsx'),
  (m) => m.ProposalRoutePage,
)
const members = preloadable(
  () => import('../features/members/members-page.tsx'),
  (m) => m.MembersPage,
)
const member = preloadable(
  () => import('./routes/member-page.tsx'),
  (m) => m.MemberRoutePage,
)
const glossary = preloadable(
  () => import('./routes/glossary-page.tsx'),
  (m) => m.GlossaryPage,
)
// The treasury page brings the chart library with it (ADR 050), as the member page does.
const treasury = preloadable(
  () => import('../features/treasury/treasury-page.tsx'),
  (m) => m.TreasuryPage,
)
const moderation = preloadable(
  () => import('../features/moderation/moderation-page.tsx'),
  (m) => m.ModerationPage,
)
const sessions = preloadable(
  () => import('./routes/sessions-page.tsx'),
  (m) => m.SessionsRoutePage,
)
const discussions = preloadable(
  () => import('../features/discussion/discussions-page.tsx'),
  (m) => m.DiscussionsPage,
)
const topic = preloadable(
  () => import('../features/discussion/topic-page.tsx'),
  (m) => m.TopicPage,
)

type PageStart = (params: Record<string, string | undefined>, queryClient: QueryClient) => Promise<unknown>

// A proposal's page, opened directly, fetches its code, its markdown renderer (which the page would
// otherwise request only once its code runs) and the proposal itself (preloaded by the page's head) at once.
const LAZY_PAGES: Array<[path: string, start: PageStart]> = [
  ['/proposals', proposals.load],
  ['/proposals/new', newProposal.load],
  [
    '/proposals/:id',
    ({ id = '' }, queryClient) =>
      Promise.all([
        proposal.load().then((page) => page.prepareProposalPage(queryClient, id)),
        import('../components/markdown.tsx'),
      ]),
  ],
  ['/discussions', discussions.load],
  ['/discussions/:id', topic.load],
  ['/members', members.load],
  ['/members/:address', member.load],
  ['/treasury', treasury.load],
  ['/moderation', moderation.load],
  ['/account/sessions', sessions.load],
  ['/glossary', glossary.load],
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
 * Routes. The Overview (the landing page) is in the first chunk; every other page loads with its route.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route element={<Layout />}>
          <Route index element={<OverviewPage />} />
          <Route path="proposals" element={<Preloaded code={proposals} props={{}} />} />
          <Route path="proposals/new" element={<Preloaded code={newProposal} props={{}} />} />
          <Route path="proposals/:id" element={<Preloaded code={proposal} props={{}} />} />
          <Route path="discussions" element={<Preloaded code={discussions} props={{}} />} />
          <Route path="discussions/:id" element={<Preloaded code={topic} props={{}} />} />
          <Route path="members" element={<Preloaded code={members} props={{}} />} />
          <Route path="members/:address" element={<Preloaded code={member} props={{}} />} />
          <Route path="treasury" element={<Preloaded code={treasury} props={{}} />} />
          <Route path="moderation" element={<Preloaded code={moderation} props={{}} />} />
          <Route path="account/sessions" element={<Preloaded code={sessions} props={{}} />} />
          <Route path="glossary" element={<Preloaded code={glossary} props={{}} />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  )
}
