import type { Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  LOG_GENESIS_HASH,
  type LogEntry,
  type LogEntryKind,
  logChainProblem,
  logEntryHash,
  safeSignatureId,
} from './log.ts'

const digest = (byte: string) => `0x${byte.repeat(32)}` as Hex
const signature = `0x${'ab'.repeat(65)}` as Hex

function chain(kinds: readonly LogEntryKind[]): LogEntry[] {
  const entries: LogEntry[] = []
  for (const [index, kind] of kinds.entries()) {
    const unhashed = {
      seq: index + 1,
      kind,
      messageId: digest((index + 16).toString(16)),
      signature,
      prevHash: entries.at(-1)?.hash ?? LOG_GENESIS_HASH,
    }
    entries.push({ ...unhashed, hash: logEntryHash(unhashed) })
  }
  return entries
}

describe('the hash-chained log', () => {
  test('behavior: an entry stored before statements existed hashes as it did then (the kind is hashed as its string)', () => {
    // Computed by the log of the commit before the 'statement' kind was added.
    const entry = {
      seq: 7,
      kind: 'vote' as const,
      messageId: digest('12'),
      signature,
      prevHash: digest('34'),
    }
    expect(logEntryHash(entry)).toBe('0x48fff3e85a0b5ab7fb30b65120df588c74e474c84a73a8e799480180308a57ba')
  })

  test('behavior: a chain mixing proposals, votes and statements verifies; a statement entry relabelled as a vote breaks it there', () => {
    const entries = chain(['proposal', 'vote', 'statement', 'vote', 'statement'])
    expect(logChainProblem(entries)).toBeNull()
    const relabelled = entries.map((entry) => (entry.seq === 3 ? { ...entry, kind: 'vote' as const } : entry))
    expect(logChainProblem(relabelled)).toEqual({ seq: 3, problem: 'its hash does not match its fields' })
  })

  test('behavior: Safe signatures join the chain as their own kind, one entry per owner of the same Safe transaction hash; relabelled as a vote, the entry breaks the chain there', () => {
    const entries = chain(['proposal', 'vote', 'safe-signature', 'safe-signature'])
    expect(logChainProblem(entries)).toBeNull()
    const relabelled = entries.map((entry) => (entry.seq === 3 ? { ...entry, kind: 'vote' as const } : entry))
    expect(logChainProblem(relabelled)).toEqual({ seq: 3, problem: 'its hash does not match its fields' })
    const hash = digest('56')
    const ada = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const ben = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
    expect(safeSignatureId(hash, ada)).not.toBe(safeSignatureId(hash, ben))
    expect(safeSignatureId(hash, ada)).not.toBe(safeSignatureId(digest('57'), ada))
  })

  test('behavior: discussion messages (keys, topics, comments, reactions, flags, moderation, a takedown) join the same chain, and an entry from before them hashes as it did', () => {
    const entries = chain([
      'proposal',
      'discussion-key',
      'topic',
      'comment',
      'reaction',
      'withdrawal',
      'flag',
      'moderation',
      'key-revocation',
      'takedown',
      'vote',
    ])
    expect(logChainProblem(entries)).toBeNull()
    // The same vote entry as the first test, hashed with every discussion kind known.
    expect(
      logEntryHash({ seq: 7, kind: 'vote', messageId: digest('12'), signature, prevHash: digest('34') }),
    ).toBe('0x48fff3e85a0b5ab7fb30b65120df588c74e474c84a73a8e799480180308a57ba')
    const relabelled = entries.map((entry) =>
      entry.seq === 4 ? { ...entry, kind: 'topic' as const } : entry,
    )
    expect(logChainProblem(relabelled)).toEqual({ seq: 4, problem: 'its hash does not match its fields' })
  })
})
