import { describe, expect, test, vi } from 'vitest'
import type { StoredProposal } from '../platform/db/schema.ts'
import { ProposalReads } from './proposal-reads.ts'

/** A promise and the function that settles it, so a test decides when a read finishes. */
function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => {
    resolve = done
  })
  return { promise, resolve }
}

const stored = (id: string) => ({ id }) as StoredProposal

describe('ProposalReads', () => {
  test('behavior: readers asking while a read runs share it; one asking after it finished reads again', async () => {
    const reads = new ProposalReads()
    const first = deferred<number>()
    let loads = 0
    const load = () => {
      loads += 1
      return loads === 1 ? first.promise : Promise.resolve(2)
    }
    const together = [reads.shared('p', 'tally', load), reads.shared('p', 'tally', load)]
    expect(loads).toBe(1)
    first.resolve(1)
    expect(await Promise.all(together)).toEqual([1, 1])
    expect(await reads.shared('p', 'tally', load)).toBe(2)
    expect(loads).toBe(2)
  })

  test('behavior: different reads and different proposals never share', async () => {
    const reads = new ProposalReads()
    const answers = await Promise.all([
      reads.shared('p', 'tally', async () => 'p tally'),
      reads.shared('p', 'votes {}', async () => 'p votes'),
      reads.shared('q', 'tally', async () => 'q tally'),
    ])
    expect(answers).toEqual(['p tally', 'p votes', 'q tally'])
  })

  test('behavior: after changed(), a reader does not join a read started before it, and the old read ending does not end the new one', async () => {
    const reads = new ProposalReads()
    const before = deferred<string>()
    const after = deferred<string>()
    const old = reads.shared('p', 'tally', () => before.promise)
    reads.changed('p')
    const fresh = reads.shared('p', 'tally', () => after.promise)
    before.resolve('before the vote')
    expect(await old).toBe('before the vote')
    // The read started after the vote is still the one a newcomer joins.
    const joined = reads.shared('p', 'tally', async () => 'a third read')
    after.resolve('with the vote')
    expect(await fresh).toBe('with the vote')
    expect(await joined).toBe('with the vote')
  })

  test('behavior: a failed read fails its sharers and is not kept', async () => {
    const reads = new ProposalReads()
    const failing = reads.shared('p', 'tally', async () => {
      throw new Error('database down')
    })
    await expect(failing).rejects.toThrow('database down')
    expect(await reads.shared('p', 'tally', async () => 'recovered')).toBe('recovered')
  })

  test('behavior: a proposal is loaded once and kept; a missing one is asked again', async () => {
    const reads = new ProposalReads()
    let loads = 0
    const load = async () => {
      loads += 1
      return stored('p')
    }
    expect(await reads.proposal('p', load)).toEqual(stored('p'))
    expect(await reads.proposal('p', load)).toEqual(stored('p'))
    expect(loads).toBe(1)
    let misses = 0
    const missing = async () => {
      misses += 1
      return undefined
    }
    expect(await reads.proposal('q', missing)).toBeUndefined()
    expect(await reads.proposal('q', missing)).toBeUndefined()
    expect(misses).toBe(2)
  })

  test('boundary: beyond 10,000 kept proposals the first kept is loaded again, the latest is still kept', async () => {
    const reads = new ProposalReads()
    const loaded: string[] = []
    const load = (id: string) => async () => {
      loaded.push(id)
      return stored(id)
    }
    for (let i = 0; i <= 10_000; i++) await reads.proposal(`p${i}`, load(`p${i}`))
    loaded.length = 0
    await reads.proposal('p10000', load('p10000'))
    await reads.proposal('p1', load('p1'))
    await reads.proposal('p0', load('p0'))
    expect(loaded).toEqual(['p0'])
  })

  test('behavior: a settle of ranked rounds runs once for every caller on the server, a vote does not end it, and its duration is kept', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    try {
      const reads = new ProposalReads()
      const first = deferred<string>()
      let runs = 0
      const run = () => {
        runs += 1
        return first.promise
      }
      expect(reads.lastSettleMs('p')).toBe(0)
      const settling = reads.settle('p', run)
      reads.changed('p')
      expect(reads.settle('p', run)).toBe(settling)
      expect(reads.settling('p')).toBe(settling)
      expect(runs).toBe(1)
      vi.advanceTimersByTime(1_500)
      first.resolve('settled')
      expect(await settling).toBe('settled')
      expect(reads.settling('p')).toBeUndefined()
      expect(reads.lastSettleMs('p')).toBe(1_500)
      expect(reads.lastSettleMs('q')).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
