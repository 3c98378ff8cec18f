import { NavLink, Outlet } from 'react-router'
import { Notices } from '../components/notices.tsx'
import { SignedInAs } from '../features/auth/signed-in-as.tsx'
import { DevAccountPicker } from '../features/dev-wallet/dev-account-picker.tsx'
import { usePublicConfig } from '../lib/public-config-context.tsx'
import { ConnectSlot } from '../wallet-kit/connect-slot.tsx'

const NAV = [
  { to: '/', label: 'Overview', end: true },
  { to: '/proposals', label: 'Proposals', end: false },
  { to: '/members', label: 'Members', end: false },
  { to: '/treasury', label: 'Treasury', end: false },
]

/** The shell every page shares: header with navigation and the connect button. */
export function Layout() {
  const config = usePublicConfig()
  return (
    <>
      <header className="header">
        <NavLink to="/" className="brand">
          {config.dao.name}
        </NavLink>
        <nav className="nav" aria-label="Main">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="connect">
          <ConnectSlot />
        </div>
        <SignedInAs />
      </header>
      <DevAccountPicker />
      <Notices />
      <main className="main">
        <Outlet />
      </main>
    </>
  )
}
