import { GLOSSARY } from '@guildhall/core'
import { useEffect } from 'react'
import { useLocation } from 'react-router'

/**
 * `/glossary`: every word of governance the app explains on hover and focus (components/term.tsx), in
 * plain language, each under a heading of its own with an anchor (`/glossary#snapshot-block`).
 */
export function GlossaryPage() {
  const { hash } = useLocation()
  const target = decodeURIComponent(hash.slice(1))
  // A link from a term is a navigation inside the app, which the browser does not scroll to its anchor:
  // the page does, and moves the focus there, so a keyboard or screen reader user is at the entry too.
  useEffect(() => {
    const heading = target ? document.getElementById(target) : null
    if (!heading) return
    heading.scrollIntoView({ block: 'start' })
    heading.focus({ preventScroll: true })
  }, [target])
  return (
    <article className="page glossary">
      <header className="page-header">
        <h1>Glossary</h1>
        <p className="lead">The words of this app's governance, in plain language.</p>
      </header>
      {GLOSSARY.map((entry) => (
        <section
          key={entry.id}
          className={entry.id === target ? 'glossary-entry glossary-target' : 'glossary-entry'}
          aria-labelledby={entry.id}
        >
          <h2 id={entry.id} tabIndex={-1}>
            {entry.term}
          </h2>
          <p>{entry.short}</p>
          <p>{entry.more}</p>
        </section>
      ))}
    </article>
  )
}
