import { DelegateToButton } from '../../features/delegation/delegate-to-button.tsx'
import { MemberPage } from '../../features/members/member-page.tsx'

/** A member's page with "Delegate to …" (the delegation panel's flow) beside their name. */
export function MemberRoutePage() {
  return (
    <MemberPage
      actions={(address, refresh) => <DelegateToButton delegatee={address} onConfirmed={refresh} />}
    />
  )
}
