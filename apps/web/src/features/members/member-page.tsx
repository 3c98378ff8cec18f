import { shortenAddress } from '@guildhall/core'
import { useParams } from 'react-router'
import { MemberAvatar } from '../../lib/names.tsx'
import './members.css'

/** A member's page: for now who they are; their record and statement arrive in a later release. */
export function MemberPage() {
  const { address = '' } = useParams()
  return (
    <article className="page">
      <header className="page-header member-page-header">
        <MemberAvatar address={address} size={48} />
        <h1 title={address}>{shortenAddress(address)}</h1>
      </header>
      <p className="member-full-address">{address}</p>
      <p className="muted">This member’s votes, delegators and statement arrive in a later release.</p>
    </article>
  )
}
