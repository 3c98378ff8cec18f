// @guildhall/api/testbed: the API's test kit for tests and scripts outside this package: the API server
// as a child process, HAProxy in front of instances, Sign-In with Ethereum over HTTP, the test database,
// the app's settings for a test, the governance messages signed with a demo member's key, the demo token's
// index, a webhook receiver, the local chain for votes and votes that keep coming, the metrics' Prometheus
// text read strictly.

export { type TestDatabase, testDatabase } from '../src/platform/db/test-database.ts'
export { type ApiProcess, startApiProcess, stopApiProcess, stopApiProcesses } from './api-process.ts'
export { demoTokenIndex } from './demo-token.ts'
export { type Haproxy, INSTANCE_KEEP_ALIVE_MS, instanceName, startHaproxy } from './haproxy.ts'
export { type Family, parsePrometheusText, sampleValue } from './prometheus-text.ts'
export {
  cookieValue,
  PREAUTH_COOKIE,
  prepareSignIn,
  SESSION_COOKIE,
  signedSignInMessage,
  signIn,
  verifySignIn,
} from './sign-in.ts'
export { demoDomain, member, proposalMessage, signProposal, signStatement, signVote } from './signers.ts'
export { testSettings } from './test-app.ts'
export { startVoteChain } from './vote-burst.ts'
export { startVoteLoad, type VoteLoad } from './vote-load.ts'
export { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts'
