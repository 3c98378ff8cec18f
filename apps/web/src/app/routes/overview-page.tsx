import { DelegationPanel } from '../../features/delegation/delegation-panel.tsx'
import { AddTokenButton } from '../../features/overview/add-token-button.tsx'
import { DaoSummary } from '../../features/overview/dao-summary.tsx'
import { MyAccount } from '../../features/overview/my-account.tsx'

export function OverviewPage() {
  return (
    <article className="page">
      <DaoSummary />
      <div className="grid">
        <MyAccount />
        <DelegationPanel />
      </div>
      <AddTokenButton />
    </article>
  )
}
