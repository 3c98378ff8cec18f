import { type MemberProfile, relativeTime } from '@guildhall/core'
import { Stat } from '../../../components/card.tsx'
import { Term } from '../../../components/term.tsx'
import { MemberName } from '../../../lib/names.tsx'
import { useTokenAmount } from '../../../lib/token.ts'
import { percent } from '../format.ts'

/** The member's figures: voting power and share, delegators, tokens, delegate, participation, last vote. */
export function MemberFigures({ member, own }: { member: MemberProfile; own: boolean }) {
  const amount = useTokenAmount()
  const now = Math.floor(Date.now() / 1000)
  return (
    <dl className="stats member-figures" data-testid="member-figures">
      <Stat
        label={<Term id="voting-power">Voting power</Term>}
        value={
          <>
            {amount(member.votes)} <span className="muted">{percent(member.share)}</span>
          </>
        }
        testId="member-power"
      />
      <Stat
        label={<Term id="delegators">Delegators</Term>}
        value={member.delegators}
        testId="member-delegators"
      />
      <Stat label="Tokens" value={amount(member.balance)} testId="member-balance" />
      <Stat
        label={<Term id="delegation">Delegates to</Term>}
        testId="member-delegate"
        value={
          member.delegate === null ? (
            'Nobody'
          ) : member.delegate === member.address ? (
            own ? (
              'Yourself'
            ) : (
              'Self'
            )
          ) : (
            <MemberName address={member.delegate} />
          )
        }
      />
      <Stat
        label={<Term id="participation">Participation</Term>}
        value={
          member.participation === null
            ? '—'
            : `${percent(member.participation)} (${member.votesCast} of ${member.eligibleProposals})`
        }
        testId="member-participation"
      />
      <Stat
        label="Last vote"
        value={member.lastVoteAt === null ? 'Never' : relativeTime(member.lastVoteAt, now)}
      />
    </dl>
  )
}
