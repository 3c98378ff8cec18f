import { Link } from 'react-router'

/** An address the app has no page for: says so, and offers a way on. */
export function NotFoundPage() {
  return (
    <article className="page">
      <h1>Page not found</h1>
      <p className="muted">There is no page at this address.</p>
      <ul className="way-back">
        <li>
          <Link to="/">Go to the overview</Link>
        </li>
        <li>
          <Link to="/proposals">See the proposals</Link>
        </li>
      </ul>
    </article>
  )
}
