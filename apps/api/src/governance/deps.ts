// What the governance services (proposals, votes, voting power, results, the log) work with, and the
// chain checks proposals and votes share.
import type { GovernanceDomain, GovernanceRules } from '@guildhall/core'
import { ChainUnavailableError, type RecoverSigner, verifyHashSignature } from '@guildhall/core'
import type { Address, Hex, PublicClient } from 'viem'
import type { Database } from '../platform/db/client.ts'
import { isDatabaseUnavailable } from '../platform/db/errors.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { Observer } from '../platform/observer.ts'
import type { TokenIndex } from '../token/token-index.ts'
import type { ProposalReads } from './proposal-reads.ts'
import type { VoteWriter } from './vote-writer.ts'

export interface GovernanceDeps {
  database: Database
  client: PublicClient
  tokenIndex: TokenIndex
  domain: GovernanceDomain
  /** The frozen rules new proposals take, and whether they may be quadratic (QUADRATIC_VOTING; absent: off). */
  rules: GovernanceRules & { quadraticVoting?: boolean }
  /** A new proposal's snapshot must be one of this many blocks before the head (ADR 015). */
  snapshotMaxAgeBlocks: number
  /** What a proposal's category may be besides none (PROPOSAL_CATEGORIES). */
  categories: readonly string[]
  /** The treasury Safe a proposal's actions run on (TREASURY_SAFE); null: proposals carry no actions. */
  treasury: { safe: Address } | null
  now: () => Date
  /** One proposal's reads shared by its concurrent readers (ADR 025). */
  reads: ProposalReads
  /** Where votes' answers and log appends are reported (the metrics). */
  observer: Observer
  /**
   * Where signatures are recovered: the app's worker threads (ADR 063). Absent in deps built by hand (seeds,
   * scripts): on the calling thread.
   */
  recover?: RecoverSigner
  /**
   * The instance's queue that stores checked votes in batches (ADR 062). Absent (deps built by hand: seeds,
   * tests): each vote is a batch of its own.
   */
  voteWriter?: VoteWriter
}

/** Unix seconds of a date (the governance clock's unit). */
export const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/**
 * A chain read that cannot get an answer is a 503, not a 500. Voting power may come from the token index in
 * the database: the database failing is said as such (the error handler's 503 database_unavailable).
 */
export async function chainRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    if (error instanceof ApiError || isDatabaseUnavailable(error)) throw error
    throw ApiError.chainUnavailable()
  }
}

/**
 * A 401 unless `signature` proves `address` signed the digest `hash`; a 503 when the chain cannot tell, or
 * when the worker checking it failed (signature_check_failed).
 */
export async function checkSignature(
  deps: GovernanceDeps,
  address: Address,
  hash: Hex,
  signature: Hex,
  /** The ECDSA recovery; a caller that has already recovered this signature passes its answer back. */
  recover: RecoverSigner | undefined = deps.recover,
) {
  let valid: boolean
  try {
    valid = await verifyHashSignature({ address, hash, signature, client: deps.client, recover })
  } catch (error) {
    if (error instanceof ChainUnavailableError) {
      throw ApiError.contractCheckUnavailable()
    }
    throw error
  }
  if (!valid) {
    throw new ApiError(
      401,
      'bad_signature',
      'The signature does not match this message, this DAO and the signer in it.',
    )
  }
}
