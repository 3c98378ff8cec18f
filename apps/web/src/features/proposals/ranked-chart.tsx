import { StackedBars, type StackedRow } from '../../components/charts/stacked-bars.tsx'
import { listNames } from './format.ts'
import { type RankedRoundJson, roundSteps } from './ranked-steps.ts'

/** Colours cycle after this many choices; the legend names each. */
const PALETTE = 8
const colourOf = (choice: number) => `chart-choice-${(choice - 1) % PALETTE}`
/** Power from several choices eliminated together: its origin cannot be split, so it has a colour of its own. */
const TOGETHER = 'chart-choice-together'

/**
 * How the eliminated choices' power moved, round by round: a bar per round, a part per continuing choice
 * (outlined), each made of its first preferences in its own colour and, after it, the power it received
 * after each elimination in the eliminated choice's colour. The round table beside it is its text.
 */
export function RankedChart({
  choices,
  rounds,
  format,
}: {
  choices: readonly string[]
  rounds: readonly RankedRoundJson[]
  format: (value: bigint) => string
}) {
  const steps = roundSteps(rounds)
  const name = (choice: number) => choices[choice - 1] ?? `Choice ${choice}`
  const first = rounds[0]
  const rows: StackedRow[] = rounds.map((round, index) => ({
    key: String(index + 1),
    label: `Round ${index + 1}`,
    parts: round.perChoice.flatMap((value, choiceIndex) => {
      if (value === null) return []
      const choice = choiceIndex + 1
      const group = String(choice)
      const own = { value: BigInt(first?.perChoice[choiceIndex] ?? '0'), className: colourOf(choice), group }
      const received = steps.slice(0, index).flatMap((step) => {
        const moved = step.moved.get(choice)
        if (!moved) return []
        const from = step.eliminated.length === 1 ? colourOf(step.eliminated[0] ?? 1) : TOGETHER
        return [{ value: moved, className: from, group }]
      })
      return [own, ...received]
    }),
  }))
  const together = steps.some((step) => step.eliminated.length > 1 && step.moved.size > 0)
  const legend = [
    ...choices.map((choice, index) => ({ name: choice, className: colourOf(index + 1) })),
    ...(together ? [{ name: 'From choices eliminated together', className: TOGETHER }] : []),
  ]
  return (
    <StackedBars
      title="How the eliminated choices' power moved"
      testId="rounds-chart"
      rows={rows}
      legend={legend}
      summary={
        steps.length <= 1
          ? 'Decided in round 1: no choice was eliminated.'
          : steps
              .filter((step) => step.eliminated.length > 0)
              .map((step) => {
                const out = listNames(step.eliminated.map(name))
                const moves = [...step.moved].map(([to, power]) => `${format(power)} to ${name(to)}`)
                const one = step.eliminated.length === 1
                return `After round ${step.round} ${out} ${one ? 'was' : 'were'} eliminated: ${
                  moves.length > 0
                    ? `${one ? 'its' : 'their'} ballots moved ${listNames(moves)}`
                    : 'no power moved'
                }.`
              })
              .join(' ')
      }
    />
  )
}
