// The words the form and the proposal page show for each proposal kind: in their own module, so they load
// with those pages and not with every page that imports the rules.
import type { ProposalKind } from './rules.ts'

/** Each kind's name as the form and the proposal page show it. */
export const PROPOSAL_KIND_LABELS: Record<ProposalKind, string> = {
  basic: 'For / Against / Abstain',
  'single-choice': 'Single choice',
  approval: 'Approval',
  'ranked-choice': 'Ranked choice',
  weighted: 'Weighted',
  quadratic: 'Quadratic',
}

/** One sentence per kind: how a ballot is cast and counted, shown by the form and the proposal page. */
export const PROPOSAL_KIND_HELP: Record<ProposalKind, string> = {
  basic:
    'Each member votes For, Against or Abstain with their voting power; the proposal passes when For outweighs Against.',
  'single-choice':
    'Each member picks one choice with their voting power; the choice with the most power wins.',
  approval:
    'Each member approves any number of choices, each with their full voting power; the most approved choice wins.',
  'ranked-choice':
    'Each member ranks every choice; round by round the last choice is eliminated and its ballots move to their next choice, until one choice holds more than half of the power.',
  weighted:
    'Each member splits their voting power across the choices they pick by whole-number weights; the choice with the most power wins.',
  quadratic:
    'Each member splits their voting power by weights, and each choice counts the square of the sum of the square roots of its parts, so many small holders outweigh one large one.',
}

/** Shown wherever a quadratic proposal is made or read: its strength is also its weakness. */
export const QUADRATIC_WARNING =
  'Quadratic voting is not sybil-resistant: a holder who splits their tokens across several addresses gains power, because each address counts the square root of its share. Use it only where each member holds one address, such as a membership token of one per member.'
