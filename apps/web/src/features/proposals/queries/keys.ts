import type { ProposalState, VoteListQuery } from '@guildhall/core'
import type { Address } from 'viem'

/**
 * The query keys of the proposals' endpoints, under one root: a vote or a new proposal invalidates them
 * all (the list, every detail, every voting power) through `proposalKeys.all`.
 */
export const proposalKeys = {
  all: ['api', 'proposals'] as const,
  /** Every list, whatever its filter. */
  lists: () => [...proposalKeys.all, 'list'] as const,
  list: (states: readonly ProposalState[]) => [...proposalKeys.lists(), ...states] as const,
  detail: (id: string) => [...proposalKeys.all, 'detail', id] as const,
  power: (id: string, address: Address | undefined) => [...proposalKeys.all, 'power', id, address] as const,
  /** Every votes list of the proposal, whatever its order and filter. */
  votesOf: (id: string) => [...proposalKeys.all, 'votes', id] as const,
  votes: (id: string, filter: Pick<VoteListQuery, 'order' | 'choice' | 'voter'>) =>
    [...proposalKeys.votesOf(id), filter] as const,
  myVote: (id: string, address: Address | undefined) =>
    [...proposalKeys.all, 'my-vote', id, address] as const,
  /** Where carrying out its actions through the Safe stands. */
  execution: (id: string) => [...proposalKeys.all, 'execution', id] as const,
}
