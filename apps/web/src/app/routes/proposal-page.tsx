import { Suspense } from 'react'
import type { Hex } from 'viem'
import { ProposalPage } from '../../features/proposals/proposal-page.tsx'
import { Preloaded, preloadable } from '../../lib/preloadable.ts'
import { usePublicConfig } from '../../lib/public-config-context.tsx'

export { prepareProposalPage } from '../../features/proposals/proposal-page.tsx'

// The thread's code (the discussion feature) loads with the section, after the proposal's own.
const thread = preloadable(
  () => import('../../features/discussion/thread.tsx'),
  (m) => m.Thread,
)

/** A proposal's page with its discussion (the "Discussion" section, #discussion) under it. */
export function ProposalRoutePage() {
  // Every discussion message is a signed-in member's: a server with sign-in off has no discussion.
  const { signIn } = usePublicConfig()
  return (
    <ProposalPage
      discussion={
        signIn
          ? (id) => (
              <Suspense fallback={<p className="muted">Loading the discussion…</p>}>
                <Preloaded code={thread} props={{ threadId: id as Hex }} />
              </Suspense>
            )
          : undefined
      }
    />
  )
}
