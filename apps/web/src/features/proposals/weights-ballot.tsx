import { formatBasisPoints, GOVERNANCE_LIMITS, weightedAllocation } from '@guildhall/core'
import { useTokenAmount } from '../../lib/token.ts'

const WEIGHT_RANGE = `a whole number from 0 to ${GOVERNANCE_LIMITS.weightMax.toLocaleString('en-US')}`

/** Why one typed weight cannot be signed, or null: 0..weightMax, whole (empty counts as 0). */
function weightProblem(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed)
  return /^\d+$/.test(trimmed) && value <= GOVERNANCE_LIMITS.weightMax ? null : `A weight is ${WEIGHT_RANGE}.`
}

/**
 * The ballot the typed weights (one per proposal choice, 0 or empty = left out) make: the choices picked
 * (1-based) with their weights, or why it cannot be signed.
 */
export function weightsBallot(entries: readonly string[]): {
  picked: number[]
  weights: number[]
  problem: string | null
} {
  const picked: number[] = []
  const weights: number[] = []
  for (const [index, text] of entries.entries()) {
    if (weightProblem(text)) {
      return { picked: [], weights: [], problem: `Check the weights: each is ${WEIGHT_RANGE}.` }
    }
    const value = Number(text.trim() || '0')
    if (value > 0) {
      picked.push(index + 1)
      weights.push(value)
    }
  }
  return {
    picked,
    weights,
    problem: picked.length === 0 ? 'Every weight is 0: give at least one choice a weight above 0.' : null,
  }
}

/**
 * A weighted or quadratic ballot: a whole-number weight per choice, and as it is typed, the share of the
 * member's voting power each choice gets (core's split, the one the count uses) and the weights' sum.
 */
export function WeightsBallot({
  choices,
  entries,
  onChange,
  power,
  quadratic,
}: {
  /** The proposal's choices, choice n at index n - 1. */
  choices: readonly string[]
  /** What is typed for each choice, in the proposal's order. */
  entries: readonly string[]
  onChange: (entries: string[]) => void
  /** The member's voting power at the snapshot, once read. */
  power: bigint | undefined
  quadratic: boolean
}) {
  const amount = useTokenAmount()
  const ballot = weightsBallot(entries)
  const valid = !ballot.problem
  // Shares in basis points, summing to 100.00 %, by the same split (largest remainder) as the power.
  const shares = valid ? weightedAllocation(10_000n, ballot.weights) : []
  const parts = valid && power !== undefined ? weightedAllocation(power, ballot.weights) : []
  const sum = ballot.weights.reduce((total, weight) => total + weight, 0)
  return (
    <fieldset className="choices weights-ballot">
      <legend className="muted">
        Give each choice a weight ({WEIGHT_RANGE}; 0 leaves it out): your voting power is split in proportion.
      </legend>
      {choices.map((choice, index) => {
        const text = entries[index] ?? ''
        const problem = weightProblem(text)
        const at = ballot.picked.indexOf(index + 1)
        const id = `weight-${index + 1}`
        return (
          <div className="weight-row" key={choice}>
            <label htmlFor={id}>{choice}</label>
            <input
              id={id}
              className="weight-input"
              type="number"
              inputMode="numeric"
              min={0}
              max={GOVERNANCE_LIMITS.weightMax}
              step={1}
              value={text}
              placeholder="0"
              aria-invalid={problem ? true : undefined}
              aria-describedby={`${id}-share`}
              onChange={(e) => onChange(entries.map((old, i) => (i === index ? e.target.value : old)))}
            />
            {/* A span, not an output: an output is a live region, and every keystroke would be read out. */}
            <span id={`${id}-share`} className="weight-share" data-testid={`share-${index + 1}`}>
              {problem
                ? problem
                : at >= 0 && valid
                  ? `${formatBasisPoints(shares[at] ?? 0n)}${parts[at] !== undefined ? ` · ${amount(parts[at])}` : ''}`
                  : 'left out'}
            </span>
          </div>
        )
      })}
      {valid ? (
        <p data-testid="weights-sum">
          Weights sum to {sum.toLocaleString('en-US')}: all of your voting power
          {power !== undefined ? ` (${amount(power)})` : ''} is split among {ballot.picked.length}{' '}
          {ballot.picked.length === 1 ? 'choice' : 'choices'}.
        </p>
      ) : null}
      {quadratic ? (
        <p className="muted" data-testid="quadratic-note">
          Counted quadratically: each choice's result is the square of the sum of its voters' square roots of
          the power shown here, so spreading your power counts for more than concentrating it.
        </p>
      ) : null}
    </fieldset>
  )
}
