// What the execution services work with: governance's (the proposals, their results, the log, the chain
// client) and the DAO's Safe with the execution settings.
import type { Address } from 'viem'
import type { GovernanceDeps } from '../governance/deps.ts'

export interface ExecutionDeps {
  governance: GovernanceDeps
  /** The treasury Safe (TREASURY_SAFE); null: no treasury, nothing can be queued or simulated. */
  safe: Address | null
  /** The DAO chain's id: the Safe transaction's EIP-712 domain. */
  chainId: number
  /** EXECUTION_DELAY_SECONDS, EXECUTION_EXPIRY_SECONDS. */
  delaySeconds: number
  expirySeconds: number
}
