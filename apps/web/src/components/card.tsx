import type { ReactNode } from 'react'

/** A titled section of a page. */
export function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="card" aria-label={title} data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

/** A labelled figure; shows a placeholder while loading. */
export function Stat({ label, value, testId }: { label: ReactNode; value: ReactNode; testId?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value ?? <span className="muted">…</span>}</dd>
    </div>
  )
}
