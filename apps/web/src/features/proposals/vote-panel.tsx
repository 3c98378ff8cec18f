import {
  ballotText,
  GOVERNANCE_LIMITS,
  kindTakesWeights,
  type ProposalDetail,
  type ProposalKind,
  type VoteListItem,
} from '@guildhall/core'
import { type FormEvent, useState } from 'react'
import type { Address } from 'viem'
import { useAccount } from 'wagmi'
import { Card } from '../../components/card.tsx'
import { SignedActionStatusLine } from '../../components/signed-action-status.tsx'
import { Term } from '../../components/term.tsx'
import { describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { SwitchChainButton } from '../../lib/switch-chain-button.tsx'
import { useTokenAmount } from '../../lib/token.ts'
import { SessionGateNotice, useSessionGate } from '../auth/session-gate.tsx'
import { useCastVote } from './queries/cast-vote.ts'
import { useMyVote } from './queries/votes.ts'
import { useVotingPower } from './queries/voting-power.ts'
import { RankedBallot } from './ranked-ballot.tsx'
import { buildVoteMessage } from './vote-message.ts'
import { WeightsBallot, weightsBallot } from './weights-ballot.tsx'

const VOTE_WORDS = {
  signing: 'Sign your vote in your wallet…',
  submitting: 'Submitting your vote…',
  done: 'Your vote is recorded. You can change it until voting ends.',
}

/** "Your vote": asks for a wallet, then (with sign-in on) a session, then offers the account's vote. */
export function VotePanel({ proposal }: { proposal: ProposalDetail }) {
  const { address, isConnected } = useAccount()
  const gate = useSessionGate()
  if (!isConnected || !address) {
    return (
      <Card title="Your vote" testId="vote-panel">
        <p className="muted">Connect a wallet to vote.</p>
      </Card>
    )
  }
  if (gate !== 'open') {
    // Voting power and why it is zero are public: said before signing in, which would not change them.
    return (
      <Card title="Your vote" testId="vote-panel">
        <PowerAtSnapshot proposal={proposal} address={address} />
        <SessionGateNotice gate={gate} purpose="vote" />
      </Card>
    )
  }
  // Choices, reason and messages belong to one account: another account (or the same one after signing
  // in again) starts afresh. A change of chain keeps them: the member is led through the switch mid-vote.
  return <AccountVotePanel key={address.toLowerCase()} proposal={proposal} />
}

/** The ballot a re-vote starts from: the counting vote as signed, its ranking or its weights typed in. */
function startingBallot(choiceCount: number, mine: VoteListItem | undefined) {
  const all = Array.from({ length: choiceCount }, (_, index) => index + 1)
  const signed = mine?.message
  const ranking = signed?.choices.length === choiceCount ? [...signed.choices] : all
  const weights = signed && 'weights' in signed ? signed.weights : []
  const entries = all.map((choice) => {
    const at = signed ? signed.choices.indexOf(choice) : -1
    return at >= 0 && weights[at] !== undefined ? String(weights[at]) : ''
  })
  return { ranking, entries }
}

/** The counting vote in words: its ranking, its split of the voter's power, or its choices (as the votes list reads them). */
function ballotInWords(kind: ProposalKind, choices: readonly string[], mine: VoteListItem): string {
  const ballot = ballotText(kind, choices, { ...mine.message, power: mine.power })
  return kind === 'ranked-choice'
    ? `You ranked ${ballot}`
    : kindTakesWeights(kind)
      ? `You gave ${ballot}`
      : `You voted ${ballot}`
}

function AccountVotePanel({ proposal }: { proposal: ProposalDetail }) {
  const dao = useDaoChain()
  const castVote = useCastVote()
  const power = useVotingPower(proposal.id, dao.address)
  const { message } = proposal
  const { kind } = message
  const [picked, setPicked] = useState<number[]>([])
  const [ranking, setRanking] = useState<number[]>(
    () => startingBallot(message.choices.length, undefined).ranking,
  )
  const [entries, setEntries] = useState<string[]>(
    () => startingBallot(message.choices.length, undefined).entries,
  )
  const [reason, setReason] = useState('')
  const myVote = useMyVote(proposal.id, dao.address)
  const mine = myVote.data ?? undefined
  // A re-vote starts from the ballot that counts: set again whenever the counting vote changes. A ranking or
  // weights are shown only once it is known (below), so nothing the member did is replaced when it arrives.
  const [startedFrom, setStartedFrom] = useState<string | null>()
  if (!myVote.isPending && startedFrom !== (mine?.id ?? null)) {
    setStartedFrom(mine?.id ?? null)
    const start = startingBallot(message.choices.length, mine)
    setRanking(start.ranking)
    setEntries(start.entries)
  }

  if (!dao.isConnected || !dao.address) return null
  const weighted = kindTakesWeights(kind)
  const ballot =
    kind === 'ranked-choice'
      ? { picked: ranking, weights: [], problem: null }
      : weighted
        ? weightsBallot(entries)
        : { picked, weights: [], problem: picked.length === 0 ? 'Pick a choice first.' : null }
  const closedText =
    proposal.state === 'pending'
      ? 'Voting has not started yet.'
      : proposal.state === 'active'
        ? null
        : 'Voting has ended.'
  const zero = power.data && BigInt(power.data.power) === 0n
  const disabledReason = closedText ?? (zero ? 'You have no voting power on this proposal.' : ballot.problem)

  function onVote(event: FormEvent) {
    event.preventDefault()
    if (!dao.domain || !dao.address || disabledReason) return
    void castVote.run(
      buildVoteMessage({
        voter: dao.address,
        proposal: proposal.id,
        kind,
        picked: ballot.picked,
        weights: ballot.weights,
        reason,
        replaces: mine,
        now: Date.now(),
      }),
    )
  }

  const single = kind !== 'approval'
  return (
    <Card title="Your vote" testId="vote-panel">
      <PowerAtSnapshot proposal={proposal} address={dao.address} />
      {mine ? (
        <p data-testid="my-vote">
          {ballotInWords(kind, message.choices, mine)}
          {proposal.state === 'active' ? '; vote again to change it.' : '.'}
        </p>
      ) : null}
      {closedText ? <p className="muted">{closedText}</p> : null}
      {proposal.state === 'active' && !zero ? (
        <form onSubmit={onVote}>
          {(kind === 'ranked-choice' || weighted) && myVote.isPending ? (
            <p className="muted">Reading your vote…</p>
          ) : kind === 'ranked-choice' ? (
            <RankedBallot choices={message.choices} ranking={ranking} onChange={setRanking} />
          ) : weighted ? (
            <WeightsBallot
              choices={message.choices}
              entries={entries}
              onChange={setEntries}
              power={power.data ? BigInt(power.data.power) : undefined}
              quadratic={kind === 'quadratic'}
            />
          ) : (
            <fieldset className="choices">
              <legend className="muted">{single ? 'Pick one' : 'Pick any you approve'}</legend>
              {message.choices.map((choice, index) => (
                <label key={choice}>
                  <input
                    type={single ? 'radio' : 'checkbox'}
                    name="choice"
                    checked={picked.includes(index + 1)}
                    onChange={(e) =>
                      setPicked(
                        single
                          ? [index + 1]
                          : e.target.checked
                            ? [...picked, index + 1]
                            : picked.filter((p) => p !== index + 1),
                      )
                    }
                  />
                  {choice}
                </label>
              ))}
            </fieldset>
          )}
          <label className="form">
            <span>
              Reason <span className="hint muted">(optional)</span>
            </span>
            <textarea
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={GOVERNANCE_LIMITS.reasonMax}
              rows={2}
            />
          </label>
          {dao.wrongChain ? (
            <SwitchChainButton purpose="to vote" primary />
          ) : (
            <div className="vote-action">
              <button
                type="submit"
                className="button primary"
                // Until the counting vote is known, a new one could not be timed after it.
                disabled={castVote.busy || myVote.isPending || Boolean(disabledReason)}
                aria-describedby={disabledReason ? 'vote-disabled-reason' : undefined}
              >
                {/* Says what the wallet will be asked to sign. */}
                {kind === 'ranked-choice'
                  ? 'Sign your ranking'
                  : weighted
                    ? 'Sign your weights'
                    : mine
                      ? 'Change vote'
                      : 'Vote'}
              </button>
              {/* Said beside the button, not in a tooltip: a tooltip never shows on a touch screen. */}
              {disabledReason ? (
                <p id="vote-disabled-reason" className="muted">
                  {disabledReason}
                </p>
              ) : null}
            </div>
          )}
        </form>
      ) : zero ? (
        <div className="vote-action">
          <button type="button" className="button primary" disabled aria-describedby="vote-disabled-reason">
            Vote
          </button>
          <p id="vote-disabled-reason" className="muted">
            {disabledReason}
          </p>
        </div>
      ) : null}
      <SignedActionStatusLine status={castVote.status} words={VOTE_WORDS} />
    </Card>
  )
}

/** The account's voting power at the proposal's snapshot and, when it is zero, why. */
function PowerAtSnapshot({ proposal, address }: { proposal: ProposalDetail; address: Address }) {
  const amount = useTokenAmount()
  const power = useVotingPower(proposal.id, address)
  return (
    <>
      {power.error ? (
        <p role="alert">Your voting power could not be read. {describeRequestError(power.error)}</p>
      ) : !power.data ? (
        <p className="muted">Reading your voting power at block {proposal.snapshot}…</p>
      ) : (
        <p data-testid="voting-power">
          Your <Term id="voting-power">voting power</Term> at{' '}
          <Term id="snapshot-block">block {power.data.snapshot}</Term>:{' '}
          <strong>{amount(power.data.power)}</strong>
        </p>
      )}
      {power.data?.reason ? (
        <p className="notice notice-info" data-testid="zero-power-reason">
          {power.data.reason.message}
        </p>
      ) : null}
    </>
  )
}
