/**
 * What the result recount (recount.ts) and the thread recount (discussion/thread-recount.ts) check alike:
 * the bundle's shape, the chain the RPC serves, and a log entry against the message it logs.
 */
import type { Hex, PublicClient } from 'viem'
import { type LogEntry, type LogEntryKind, logEntryHash } from './governance/log.ts'

/** A bundle that is not one (bad JSON, a field of the wrong shape, cut short): the recount cannot run. */
export class BundleFormatError extends Error {
  override name = 'BundleFormatError'
}

/** Why `client` cannot stand for the DAO's chain `chainId`, or null when it serves that chain. */
export async function chainProblem(client: PublicClient, chainId: number): Promise<string | null> {
  const served = Number(await client.request({ method: 'eth_chainId' }))
  return served === chainId ? null : `The RPC serves chain ${served}, but this DAO lives on chain ${chainId}.`
}

/**
 * How `entry` fails to log the message `expected`: 'hash' when it does not hash to its stored hash,
 * 'differs' when its kind, message id or signature is another's; null when it logs it.
 */
export function loggedProblem(
  entry: LogEntry,
  expected: { kind: LogEntryKind; messageId: Hex; signature: Hex },
): 'hash' | 'differs' | null {
  if (logEntryHash(entry) !== entry.hash) return 'hash'
  if (
    entry.kind !== expected.kind ||
    entry.messageId !== expected.messageId ||
    entry.signature !== expected.signature
  )
    return 'differs'
  return null
}
