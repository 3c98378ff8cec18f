import { Link } from 'react-router'

/** A page a later release fills; says so instead of pretending. */
export function PlaceholderPage({ title, text }: { title: string; text: string }) {
  return (
    <article className="page">
      <h1>{title}</h1>
      <p className="muted">{text}</p>
    </article>
  )
}

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
