import { SessionsPage } from '../../features/auth/sessions-page.tsx'
import { DiscussionKeys } from '../../features/discussion/keys-list.tsx'

/** "Your sessions" with, beside them, the discussion keys this member has authorised. */
export function SessionsRoutePage() {
  return <SessionsPage beside={<DiscussionKeys />} />
}
