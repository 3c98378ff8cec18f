import type { Address } from 'viem'
import { Term } from '../../components/term.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { useDelegateStatement } from './queries/delegate-statement.ts'

// The markdown renderer and its sanitiser are their own chunk, loaded when a statement is shown.
export const markdownRenderer = preloadable(
  () => import('../../components/markdown.tsx'),
  (m) => m.Markdown,
)

/** A delegate's latest statement, read-only: rendered (sanitised) markdown and when it was signed. */
export function DelegateStatementView({ delegate }: { delegate: Address }) {
  const { data: statement, error, isPending } = useDelegateStatement(delegate)
  if (error) return <p role="alert">The statement could not be loaded. {describeRequestError(error)}</p>
  if (isPending) return <p className="muted">Loading the statement…</p>
  if (!statement?.message.statement) return <p className="muted">No delegate statement yet.</p>
  return (
    <div data-testid="delegate-statement">
      <Preloaded code={markdownRenderer} props={{ text: statement.message.statement }} />
      <p className="muted">
        Signed{' '}
        {new Date(statement.message.timestamp * 1000).toLocaleDateString('en', { dateStyle: 'medium' })} ·
        <Term id="log-entry">governance log entry {statement.seq}</Term>
      </p>
    </div>
  )
}
