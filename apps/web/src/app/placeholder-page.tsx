/** A page a later release fills; says so instead of pretending. */
export function PlaceholderPage({ title, text }: { title: string; text: string }) {
  return (
    <article className="page">
      <h1>{title}</h1>
      <p className="muted">{text}</p>
    </article>
  )
}
