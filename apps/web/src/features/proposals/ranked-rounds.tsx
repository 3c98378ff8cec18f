import { Fragment, type ReactNode } from 'react'
import { listNames } from './format.ts'
import { type RankedRoundJson, type RoundStep, roundSteps } from './ranked-steps.ts'

/** Why a round's eliminations were those, in a sentence; null when one choice simply had the least power. */
function eliminationReason(
  step: RoundStep,
  rounds: readonly RankedRoundJson[],
  choices: readonly string[],
  format: (value: bigint) => string,
): string | null {
  const name = (choice: number) => choices[choice - 1] ?? `Choice ${choice}`
  const names = (list: readonly number[]) => listNames(list.map(name))
  const at = (round: number, choice: number) => BigInt(rounds[round - 1]?.perChoice[choice - 1] ?? '0')
  const { why, eliminated, round } = step
  if (!why || why.rule === 'least') return null
  if (why.rule === 'unexplained')
    return `After round ${round} ${names(eliminated)} ${eliminated.length === 1 ? 'was' : 'were'} eliminated, which the tie rules do not give from these figures: verify this result.`
  const tied = `${names(why.tied)} tied at ${format(at(round, why.tied[0] ?? 0))}`
  const out = names(eliminated)
  if (why.rule === 'previous-round')
    return `${tied} in round ${round}; ${out} had less in round ${round - 1} (${format(at(round - 1, eliminated[0] ?? 0))}), so ${out} was eliminated.`
  if (why.rule === 'first-preferences')
    return `${tied} in round ${round}${round > 1 ? ' and no earlier round told them apart' : ''}; ${out} had fewer first preferences (${format(at(1, eliminated[0] ?? 0))}), so ${out} was eliminated.`
  return round === 1
    ? `${tied} in round 1, so they were eliminated together.`
    : `${tied} in round ${round}; neither round ${round - 1} nor the first preferences told ${out} apart, so they were eliminated together.`
}

/**
 * A ranked-choice count round by round: a row per choice, a column per round, each cell that choice's
 * power in the round ("out" once eliminated), then the continuing power, the majority it takes and who
 * was eliminated after the round; under it, why, when a tie rule decided. The table scrolls sideways in its
 * own box when the rounds are wider than the card (a phone), never the page.
 */
export function RankedRounds({
  choices,
  rounds,
  winners,
  open,
  format,
}: {
  choices: readonly string[]
  rounds: readonly RankedRoundJson[]
  /** 1-based; several on a tie, none without votes. Marked in the last round. */
  winners: readonly number[]
  /** Voting is still open: the one ahead "leads" rather than "wins". */
  open: boolean
  format: (value: bigint) => string
}) {
  const steps = roundSteps(rounds)
  const name = (choice: number) => choices[choice - 1] ?? `Choice ${choice}`
  const reasons = steps.flatMap((step) => {
    const reason = eliminationReason(step, rounds, choices, format)
    return reason ? [{ round: step.round, reason }] : []
  })
  const lastRound = rounds.length
  const cell = (round: RankedRoundJson, step: RoundStep, choiceIndex: number): ReactNode => {
    const value = round.perChoice[choiceIndex]
    if (value === null || value === undefined) return <td className="round-out">out</td>
    const choice = choiceIndex + 1
    const mark = step.eliminated.includes(choice)
      ? 'eliminated'
      : step.round === lastRound && winners.includes(choice)
        ? winners.length > 1
          ? 'tied'
          : open
            ? 'leads'
            : 'wins'
        : null
    return (
      <td className={mark ? `round-${mark}` : undefined}>
        {format(BigInt(value))}
        {mark ? <span className="round-mark"> · {mark}</span> : null}
      </td>
    )
  }
  return (
    <div className="ranked-rounds">
      {/* Focusable, so a keyboard can scroll it when it is wider than the card. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard's focus */}
      <section className="table-scroll" tabIndex={0} aria-label="Rounds of the count">
        <table className="rounds-table" data-testid="rounds-table">
          <thead>
            <tr>
              <th scope="col">Choice</th>
              {rounds.map((_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rounds are numbered by their place
                <th scope="col" key={index}>
                  Round {index + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {choices.map((choice, choiceIndex) => (
              <tr key={choice} data-testid="round-row">
                <th scope="row">{choice}</th>
                {rounds.map((round, index) => {
                  const step = steps[index] as RoundStep
                  // biome-ignore lint/suspicious/noArrayIndexKey: rounds are numbered by their place
                  return <Fragment key={index}>{cell(round, step, choiceIndex)}</Fragment>
                })}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr data-testid="round-continuing">
              <th scope="row">Continuing</th>
              {rounds.map((round, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rounds are numbered by their place
                <td key={index}>{format(BigInt(round.continuing))}</td>
              ))}
            </tr>
            <tr data-testid="round-majority">
              <th scope="row">To win: more than</th>
              {rounds.map((round, index) => (
                // "More than half": for whole units, more than ⌊c/2⌋ is exactly more than c/2.
                // biome-ignore lint/suspicious/noArrayIndexKey: rounds are numbered by their place
                <td key={index}>{format(BigInt(round.continuing) / 2n)}</td>
              ))}
            </tr>
            <tr data-testid="round-eliminated">
              <th scope="row">Eliminated</th>
              {steps.map((step) => (
                <td key={step.round}>
                  {step.eliminated.length > 0 ? listNames(step.eliminated.map(name)) : '—'}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </section>
      {reasons.length > 0 ? (
        <ul className="round-reasons" data-testid="round-reasons">
          {reasons.map(({ round, reason }) => (
            <li key={round}>{reason}</li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
