import { createBrowserRouter } from 'react-router'
import { Layout } from './layout.tsx'
import { PlaceholderPage } from './placeholder-page.tsx'
import { OverviewPage } from './routes/overview-page.tsx'

/**
 * Routes; pages later issues fill are placeholders that say so. The Overview (the landing page) is in the
 * first chunk; other real pages load with their route.
 */
export function createRouter() {
  return createBrowserRouter([
    {
      element: <Layout />,
      children: [
        { index: true, element: <OverviewPage /> },
        {
          path: 'proposals',
          lazy: async () => ({
            Component: (await import('../features/proposals/proposals-page.tsx')).ProposalsPage,
          }),
        },
        {
          path: 'proposals/new',
          lazy: async () => ({
            Component: (await import('../features/proposals/new-proposal-page.tsx')).NewProposalPage,
          }),
        },
        {
          path: 'proposals/:id',
          lazy: async () => ({
            Component: (await import('../features/proposals/proposal-page.tsx')).ProposalPage,
          }),
        },
        {
          path: 'members',
          element: (
            <PlaceholderPage title="Members" text="The members directory arrives in a later release." />
          ),
        },
        {
          path: 'treasury',
          element: <PlaceholderPage title="Treasury" text="Treasury balances arrive in a later release." />,
        },
        {
          path: 'account/sessions',
          lazy: async () => ({
            Component: (await import('../features/auth/sessions-page.tsx')).SessionsPage,
          }),
        },
        {
          path: '*',
          element: <PlaceholderPage title="Page not found" text="There is no page at this address." />,
        },
      ],
    },
  ])
}
