// @guildhall/api/operations: the API's work outside a request, for the scripts that run or check it on
// their own: the leader's jobs (the token index, the name refresher), the recounts of what is stored
// (`npm run tallies:check`), the operator's takedown (`npm run takedown`), the webhooks' delivery log and
// test (`npm run webhooks`), and the vote path's storage rules, which the bench's bulk seed follows and its
// test compares with castVote; the proposal path, through which the discussion bench creates the proposals
// its threads hang on; the key and comment paths and the comments' tree path, which the discussion bench's
// bulk seed follows and its test compares with.

export { postComment } from './discussion/comments.ts'
export type { DiscussionDeps } from './discussion/deps.ts'
export { authoriseKey } from './discussion/keys.ts'
export { pathSegment } from './discussion/signed.ts'
export { TakedownRefused, takedown } from './discussion/takedown.ts'
export type { GovernanceDeps } from './governance/deps.ts'
export { LOG_LOCK_KEY } from './governance/log.ts'
export { ProposalReads } from './governance/proposal-reads.ts'
export { createProposal } from './governance/proposals.ts'
export { rankedResult, settleRankedResult } from './governance/ranked-results.ts'
export { storedTally, tallyRules } from './governance/tallies.ts'
export { checkTallies, recountTally } from './governance/tally-check.ts'
export { voteListCursors } from './governance/vote-list.ts'
export { castVote } from './governance/votes.ts'
export { checkMemberStats, recordBallots } from './member-stats/vote-moves.ts'
export { NameRefresher, nameLookupClient } from './names/name-refresher.ts'
export { NameProfiles } from './names/profiles.ts'
export { sendTestWebhook, webhookDeliveryLog, webhookTargetsOf } from './notifications/webhook-operator.ts'
export { silentObserver } from './platform/observer.ts'
export { signaturePool } from './platform/signatures/pool.ts'
export { TokenIndex } from './token/token-index.ts'
