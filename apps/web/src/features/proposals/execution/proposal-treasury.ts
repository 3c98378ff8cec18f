// What a proposal with actions adds to its page, loaded only for such a proposal: the decoding, the Safe
// transaction's derivation and hashing (core's treasury code, viem's ABI and EIP-712 code) that a proposal
// without actions never runs.
export { ProposalActions } from '../actions/proposal-actions.tsx'
export { ExecutionPanel } from './execution-panel.tsx'
