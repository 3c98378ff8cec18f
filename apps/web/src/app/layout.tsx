import { MAIN_NAV } from '@guildhall/core'
import { Suspense } from 'react'
import { NavLink, Outlet, useLocation } from 'react-router'
import { Notices } from '../components/notices.tsx'
import { SignedInAs } from '../features/auth/signed-in-as.tsx'
import { DevAccountPicker } from '../features/dev-wallet/dev-account-picker.tsx'
import { usePublicConfig } from '../lib/public-config-context.tsx'
import { ConnectSlot } from '../wallet-kit/connect-slot.tsx'
import { PageErrorBoundary } from './page-error-boundary.tsx'

/**
 * The shell every page shares: header with navigation and the connect button. The server renders the same
 * markup into index.html (apps/api/src/web/app-shell.ts) so the page paints before this code runs: a change
 * here must be made there too (e2e/tests/shell.spec.ts checks that nothing moves when React takes over).
 */
export function Layout() {
  const config = usePublicConfig()
  const { pathname } = useLocation()
  return (
    <>
      <header className="header">
        <NavLink to="/" className="brand">
          {config.dao.name}
        </NavLink>
        <nav className="nav" aria-label="Main">
          {MAIN_NAV.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="connect">
          <ConnectSlot />
        </div>
        {/* A place of its own, kept in every state, so signing in or out never changes the header's
            height and the page below does not jump. */}
        {config.signIn ? (
          <div className="session">
            <SignedInAs />
          </div>
        ) : null}
      </header>
      <DevAccountPicker />
      <Notices />
      <main className="main">
        <PageErrorBoundary resetKey={pathname}>
          {/* Empty while a page's code loads on the first visit, as the server-rendered shell is. */}
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
    </>
  )
}
