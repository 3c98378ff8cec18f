import { type GlossaryTermId, glossaryEntry, glossaryPath } from '@guildhall/core'
import { type ReactNode, useId, useRef, useState } from 'react'
import { Link } from 'react-router'

/** Space kept between an explanation and the window's edges, in px. */
const EDGE = 8

/**
 * A word of governance with its explanation: a link to its glossary entry, whose short explanation shows
 * on hover and on keyboard focus (and is the link's description for screen readers); Escape hides it. On a
 * touch screen, where nothing hovers, the link opens the glossary. The server's shell of a proposal's page
 * writes the same markup for its byline's snapshot block (apps/api/src/web/app-shell.ts, `renderTerm`).
 */
export function Term({ id, children }: { id: GlossaryTermId; children: ReactNode }) {
  const tipId = useId()
  const tip = useRef<HTMLSpanElement>(null)
  const [dismissed, setDismissed] = useState(false)
  // The explanation hangs below the term; near the window's right edge it moves left to stay on screen.
  const show = () => {
    setDismissed(false)
    const element = tip.current
    if (!element) return
    element.style.translate = ''
    const { left, right } = element.getBoundingClientRect()
    const over = right - (window.innerWidth - EDGE)
    if (over > 0) element.style.translate = `${-Math.min(over, left - EDGE)}px 0`
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the link inside is the control; this only shows its explanation
    <span
      className={dismissed ? 'term term-dismissed' : 'term'}
      onMouseEnter={show}
      onFocus={show}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setDismissed(true)
      }}
    >
      <Link className="term-link" to={glossaryPath(id)} aria-describedby={tipId}>
        {children}
      </Link>
      <span className="term-tip" role="tooltip" id={tipId} ref={tip}>
        {glossaryEntry(id).short}
      </span>
    </span>
  )
}
