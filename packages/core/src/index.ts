/**
 * `@guildhall/core`, the main entry: what the web app and the API share, safe in a browser. Each export is
 * named here once, and this is the one way to import it; core's other entries are named in package.json
 * (`recount`, `rpc-socket`, `generated/governance-token`: ADR 044).
 *
 * `api/` holds the API's requests and answers, one file per resource; whole numbers that may exceed a
 * JavaScript number are decimal strings there (JSON has no bigint). The result bundle's schema lives with
 * the recount that reads it.
 */

export type { PublicSession, SessionListItem, SessionResponse, SessionsResponse } from './api/auth.ts'
export {
  nonceResponseSchema,
  sessionResponseSchema,
  sessionsResponseSchema,
  verifyRequestSchema,
} from './api/auth.ts'
export type {
  CommentJson,
  CommentVersions,
  DiscussionKeyJson,
  DiscussionPageQuery,
  ModerationActionJson,
  ModerationActionList,
  ModerationActionListItem,
  ThreadItem,
  ThreadJson,
  ThreadPage,
  TopicJson,
  TopicListQuery,
  TopicSummary,
  VoteCardJson,
} from './api/discussion.ts'
export {
  commentResponseSchema,
  commentVersionsSchema,
  discussionKeyListSchema,
  discussionKeyResponseSchema,
  discussionPageQuerySchema,
  moderationActionListSchema,
  moderationActionResponseSchema,
  reactionResponseSchema,
  threadJsonSchema,
  threadPageSchema,
  threadSeenRequestSchema,
  topicJsonSchema,
  topicListQuerySchema,
  topicListSchema,
  topicResponseSchema,
} from './api/discussion.ts'
export { apiErrorSchema } from './api/errors.ts'
export type {
  ExecutionState,
  LiveExecution,
  ProposalExecution,
  SafeConfirmation,
  SafeSignatureRequest,
  SafeTransactionJson,
  Simulation,
} from './api/execution.ts'
export {
  liveExecutionSchema,
  proposalExecutionSchema,
  safeSignatureRequestSchema,
  simulateRequestSchema,
  simulationSchema,
} from './api/execution.ts'
export { ADDRESS_START_PATTERN, CURSOR_MAX_LENGTH } from './api/lists.ts'
export type { LiveProposal, LiveTally, LiveThread } from './api/live.ts'
export { liveProposalSchema, liveTallySchema, liveThreadSchema } from './api/live.ts'
export type {
  MemberList,
  MemberListItem,
  MemberListQuery,
  MemberPageQuery,
  MemberProfile,
  MemberSort,
  PowerHistory,
  PowerHistoryQuery,
} from './api/members.ts'
export {
  MEMBER_SORTS,
  memberDelegatorListSchema,
  memberListQuerySchema,
  memberListSchema,
  memberPageQuerySchema,
  memberProfileSchema,
  memberProposalListSchema,
  memberVoteListSchema,
  powerHistoryQuerySchema,
  powerHistorySchema,
} from './api/members.ts'
export type { NameAnswer, NameList, ResolvedName } from './api/names.ts'
export {
  ENS_NAME_MAX_LENGTH,
  NAMES_PER_REQUEST_MAX,
  nameListQuerySchema,
  nameListSchema,
  nameResolveQuerySchema,
  resolvedNameSchema,
} from './api/names.ts'
export type { ProposalDetail, ProposalListQuery } from './api/proposals.ts'
export {
  createProposalResponseSchema,
  proposalDetailSchema,
  proposalListQuerySchema,
  proposalListSchema,
} from './api/proposals.ts'
export type { DelegateStatement } from './api/statements.ts'
export { delegateStatementSchema, publishStatementResponseSchema } from './api/statements.ts'
export type { TallyJson } from './api/tallies.ts'
export { tallyFromJson, tallyToJson } from './api/tallies.ts'
export { holderStatsSchema } from './api/token.ts'
export type {
  TreasuryAsset,
  TreasuryCharts,
  TreasuryHistoryDirection,
  TreasuryHistoryItem,
  TreasuryHistoryKind,
  TreasurySpending,
  TreasurySummary,
} from './api/treasury.ts'
export {
  NATIVE_TOKEN_PARAM,
  TREASURY_BALANCE_POINTS_MAX,
  TREASURY_HISTORY_DIRECTIONS,
  treasuryChartsQuerySchema,
  treasuryChartsSchema,
  treasuryHistoryCsvQuerySchema,
  treasuryHistoryPageSchema,
  treasuryHistoryQuerySchema,
  treasurySpendingSchema,
  treasurySummarySchema,
} from './api/treasury.ts'
export type { VoteListItem, VoteListQuery } from './api/votes.ts'
export { castVoteResponseSchema, VOTE_LIST_ORDERS, voteListQuerySchema, voteListSchema } from './api/votes.ts'
export type { AnswerSource, ZeroPowerExplanation } from './api/voting-power.ts'
export { votingPowerResponseSchema } from './api/voting-power.ts'
export type { DiscussionPosters, GovernanceRules, PublicChain, PublicConfig } from './config.ts'
export {
  APP_SHELL_PLACEHOLDER,
  DEFAULT_GOVERNANCE_RULES,
  DEFAULT_PROPOSAL_CATEGORIES,
  DISCUSSION_POSTERS,
  formatIssues,
  hexColorSchema,
  MISSING_PROJECT_ID_MESSAGE,
  PUBLIC_CONFIG_ELEMENT_ID,
  PUBLIC_CONFIG_PLACEHOLDER,
  publicConfigSchema,
} from './config.ts'
export type { WalletId } from './constants.ts'
export {
  DEFAULT_CONFIRMATIONS,
  HTTP_TIMEOUT_MS,
  LOCAL_CHAIN_ID,
  MULTICALL_BATCH_SIZE,
  MULTICALL3_ADDRESS,
  POLLING_INTERVAL_MS,
  POPULAR_WALLET_IDS,
  QUERY_GC_TIME_MS,
  QUERY_NETWORK_MODE,
  QUERY_PERSIST_KEY,
  QUERY_RETRY,
  RECEIPT_RETRY_BASE_DELAY_MS,
  RECEIPT_RETRY_COUNT,
  receiptRetryDelay,
  WALLET_CONNECT_WALLET_IDS,
  WALLET_GROUP_NAME,
} from './constants.ts'
export { mentionsProblem, mentionTokens } from './discussion/mentions.ts'
export type {
  CommentMessage,
  DiscussionKeyMessage,
  DiscussionKeyScope,
  DiscussionMessageKind,
  DiscussionMessages,
  FlagMessage,
  KeyRevocationMessage,
  ModerationMessage,
  Reaction,
  ReactionMessage,
  TopicMessage,
  WithdrawalMessage,
} from './discussion/messages.ts'
export {
  commentDepth,
  commentDepthProblem,
  commentMessageSchema,
  commentTypedData,
  DISCUSSION_KEY_SCOPES,
  DISCUSSION_KIND_SCOPES,
  DISCUSSION_LIMITS,
  digestSigner,
  discussionAuthor,
  discussionKeyId,
  discussionKeyMessageSchema,
  discussionKeyTypedData,
  discussionMessageId,
  discussionSigner,
  flagMessageSchema,
  isKeySignature,
  keyRevocationId,
  keyRevocationMessageSchema,
  keyRevocationTypedData,
  moderationMessageSchema,
  REACTION_EMOJI,
  REACTIONS,
  reactionMessageSchema,
  signedDiscussionSchema,
  signWithDiscussionKey,
  topicMessageSchema,
  withdrawalMessageSchema,
} from './discussion/messages.ts'
export { evenShares } from './even-shares.ts'
export { formatTokenAmount, shortenAddress } from './format.ts'
export type { GlossaryTermId } from './glossary.ts'
export { GLOSSARY, glossaryEntry, glossaryPath } from './glossary.ts'
export { ballotText } from './governance/ballot-text.ts'
export { PROPOSAL_KIND_HELP, PROPOSAL_KIND_LABELS, QUADRATIC_WARNING } from './governance/kind-texts.ts'
export type { LogEntry, LogEntryKind } from './governance/log.ts'
export {
  LOG_GENESIS_HASH,
  logChainProblem,
  logEntryHash,
  logEntrySchema,
  safeSignatureId,
} from './governance/log.ts'
export type {
  DelegateStatementMessage,
  GovernanceDomain,
  ProposalMessage,
  ProposalMessageV1,
  ProposalMessageV2,
  SignedDelegateStatement,
  SignedProposal,
  SignedVote,
  VoteMessage,
  VoteMessageV1,
} from './governance/messages.ts'
export {
  BASIC_CHOICES,
  delegateStatementId,
  delegateStatementMessageSchema,
  delegateStatementTypedData,
  governanceDomain,
  proposalId,
  proposalMessageSchema,
  proposalTypedData,
  signedDelegateStatementSchema,
  signedProposalSchema,
  signedVoteSchema,
  signGovernanceMessage,
  voteId,
  voteMessageSchema,
  voteTypedData,
  voteWeights,
} from './governance/messages.ts'
export type { ProposalKind } from './governance/rules.ts'
export {
  countingVotes,
  DEFAULT_SNAPSHOT_MAX_AGE_BLOCKS,
  GOVERNANCE_LIMITS,
  kindTakesWeights,
  PROPOSAL_KINDS,
  snapshotProblem,
  supersedes,
  supersedingTimestamp,
  TIMESTAMP_MAX_AGE_SECONDS,
  TIMESTAMP_MAX_SKEW_SECONDS,
  timestampProblem,
  timestampProblemMessage,
  voteChoicesProblem,
} from './governance/rules.ts'
export { loadWasmKeccak } from './keccak.ts'
export { MAIN_NAV } from './navigation.ts'
export { BYTES32_PATTERN, bytes32Schema, checksummedAddressSchema, tokenAmountSchema } from './primitives.ts'
export { relativeTime, STATE_LABELS, timeLine } from './proposal-text.ts'
export { isWebSocketUrl, rpcTransport } from './rpc-transport.ts'
export {
  ChainUnavailableError,
  type RecoverSigner,
  recoverSigner,
  SIGNATURE_CHECK_GAS,
  verifyHashSignature,
  verifyPersonalSignature,
} from './signature.ts'
export { buildSignInMessage, signInStatement } from './siwe/builder.ts'
export { parseRfc3339 } from './siwe/grammar.ts'
export { parseSiweMessageStrict } from './siwe/parser.ts'
export type { SiwePolicy } from './siwe/policy.ts'
export { checkSiwePolicy } from './siwe/policy.ts'
export type {
  CountedVote,
  EliminationRule,
  ProposalState,
  RankedBallot,
  Tally,
  TallyRules,
  TallyTotals,
} from './tally.ts'
export {
  addToTotals,
  basisPoints,
  emptyTallyTotals,
  FINALITY_DELAY_SECONDS,
  formatBasisPoints,
  nextStateChange,
  PROPOSAL_STATES,
  proposalState,
  rankedElimination,
  rankedRounds,
  settleTally,
  sharesInBasisPoints,
  TALLY_VERSION,
  tally,
  voteContribution,
  weightedAllocation,
} from './tally.ts'
export type {
  ActionArgument,
  ActionFinding,
  DecodedAction,
  KnownToken,
  ProposalAction,
} from './treasury/actions.ts'
export {
  actionProblems,
  actionWarnings,
  decodeAction,
  erc20ActionAbi,
  proposalActionSchema,
  safeSettingsAbi,
  UNLIMITED_APPROVAL_FLOOR,
} from './treasury/actions.ts'
export type { MultiSendCall, MultiSendVersion } from './treasury/multi-send.ts'
export {
  decodeMultiSend,
  encodeMultiSend,
  isCanonicalMultiSendCallOnly,
  MULTI_SEND_CALL_ONLY,
  multiSendAbi,
  OPERATION_DELEGATE_CALL,
} from './treasury/multi-send.ts'
export type { SafeTransaction } from './treasury/safe-transaction.ts'
export {
  execTransactionAbi,
  expectedSafeTransaction,
  packSafeSignatures,
  safeTransactionForActions,
  safeTransactionHashes,
  safeTransactionTypedData,
} from './treasury/safe-transaction.ts'
export {
  chainNotConfiguredMessage,
  SPEC_LIBRARY_MESSAGES,
  WALLET_ERROR_MESSAGES,
  walletErrorMessage,
} from './wallet-errors.ts'
