// TurnBatches (turn-batches.ts, ADR 077): a turn's items in one run, one run at a time, answers in order.
import { describe, expect, test } from 'vitest'
import { TurnBatches } from './turn-batches.ts'

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

describe('TurnBatches', () => {
  test('behavior: the items added in one turn go in one run and each gets its own answer, in order', async () => {
    const runs: number[][] = []
    const batches = new TurnBatches<number, string>(async (items) => {
      runs.push([...items])
      return items.map((item) => `answer ${item}`)
    })
    const answers = await Promise.all([3, 1, 2].map((item) => batches.add(item)))
    expect(answers).toEqual(['answer 3', 'answer 1', 'answer 2'])
    expect(runs).toEqual([[3, 1, 2]])
  })

  test('behavior: one run at a time; the items of the turns that come while it runs go together in the next', async () => {
    const runs: number[][] = []
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const batches = new TurnBatches<number, number>(async (items) => {
      runs.push([...items])
      if (runs.length === 1) await held
      return items.map((item) => item * 10)
    })
    const first = batches.add(1)
    const later: Promise<number>[] = []
    for (let turn = 2; turn <= 4; turn++) {
      await nextTurn()
      later.push(batches.add(turn))
    }
    expect(runs).toEqual([[1]])
    release()
    expect(await first).toBe(10)
    expect(await Promise.all(later)).toEqual([20, 30, 40])
    expect(runs).toEqual([[1], [2, 3, 4]])
  })

  test('error: a run that fails, or answers a different number of items, fails every item of its batch, and the next batch runs', async () => {
    let mode: 'fail' | 'short' | 'ok' = 'fail'
    const batches = new TurnBatches<number, number>(async (items) => {
      if (mode === 'fail') throw new Error('database unavailable')
      if (mode === 'short') return items.slice(1)
      return [...items]
    })
    const failed = await Promise.allSettled([batches.add(1), batches.add(2)])
    expect(failed.map((result) => result.status === 'rejected' && String(result.reason))).toEqual([
      'Error: database unavailable',
      'Error: database unavailable',
    ])
    mode = 'short'
    await expect(Promise.all([batches.add(1), batches.add(2)])).rejects.toThrow('a batch of 2 got 1 answers')
    mode = 'ok'
    expect(await Promise.all([batches.add(5), batches.add(6)])).toEqual([5, 6])
  })
})
