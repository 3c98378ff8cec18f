import { formatBasisPoints, sharesInBasisPoints, weightedAllocation } from '../tally.ts'
import { kindTakesWeights, type ProposalKind } from './rules.ts'

/**
 * A ballot as a line to read (the votes list, the vote panel, a vote card in the thread): "1. A · 2. C · 3. B" (ranked choice, in the voter's order); "A 60.00 % ·
 * B 40.00 %" (weighted, quadratic: each weight as a share of the voter's power, split as the tally splits
 * it, so the shares are of what each choice received); "A, B" otherwise.
 */
export function ballotText(
  kind: ProposalKind,
  labels: readonly string[],
  ballot: { choices: readonly number[]; weights?: readonly number[] | undefined; power: string | bigint },
): string {
  const name = (choice: number) => labels[choice - 1] ?? `Choice ${choice}`
  const { choices, weights } = ballot
  if (kind === 'ranked-choice')
    return choices.map((choice, index) => `${index + 1}. ${name(choice)}`).join(' · ')
  if (kindTakesWeights(kind) && weights && weights.length === choices.length) {
    const power = BigInt(ballot.power)
    // A voter without power moves nothing: their weights alone say what they asked for.
    const parts = power > 0n ? weightedAllocation(power, weights, choices) : weights.map(BigInt)
    const shares = sharesInBasisPoints(parts)
    return choices
      .map((choice, index) => `${name(choice)} ${formatBasisPoints(shares[index] ?? 0n)}`)
      .join(' · ')
  }
  return choices.map(name).join(', ')
}
