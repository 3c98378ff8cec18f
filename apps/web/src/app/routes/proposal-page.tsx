import { Suspense } from 'react'
import type { Hex } from 'viem'
import { ProposalPage } from '../../features/proposals/proposal-page.tsx'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'

export { prepareProposalPage } from '../../features/proposals/proposal-page.tsx'

// The thread's code (the discussion feature) loads with the section, after the proposal's own.
const thread = preloadable(
  () => import('../../features/discussion/thread.tsx'),
  (m) => m.Thread,
)

/** A proposal's page with its discussion (the "Discussion" section, #discussion) under it. */
export function ProposalRoutePage() {
  return (
    <ProposalPage
      discussion={(id) => (
        <Suspense fallback={<p className="muted">Loading the discussion…</p>}>
          <Preloaded code={thread} props={{ threadId: id as Hex }} />
        </Suspense>
      )}
    />
  )
}
