// The governance token's figures, answered by the token index.
import { withTimeout } from 'viem'
import { ApiError } from '../platform/http/errors.ts'
import type { TokenIndex } from './token-index.ts'

/** How long a holders request waits for the token index's first sync before answering 503. */
const HOLDERS_WAIT_MS = 5_000

/** How many hold the token, as of which block; a 503 when the index has no answer. */
export async function holderCount(tokenIndex: TokenIndex): Promise<{ holders: number; blockNumber: number }> {
  try {
    // Before the first sync has finished, this request waits for it (bounded): the figure is then exact.
    const stats =
      (await tokenIndex.holders()) ??
      (await withTimeout(() => tokenIndex.syncOnce(), { timeout: HOLDERS_WAIT_MS }).then(() =>
        tokenIndex.holders(),
      ))
    if (!stats) throw new Error('token index not ready')
    return stats
  } catch {
    throw ApiError.chainUnavailable()
  }
}
