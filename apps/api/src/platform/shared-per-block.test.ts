import { expect, test } from 'vitest'
import { sharedPerBlock } from './shared-per-block.ts'

test('behavior: calls at one block share one read (in flight or done); another block reads again', async () => {
  const reads: bigint[] = []
  const atBlock = sharedPerBlock(async (block) => {
    reads.push(block)
    return `state at ${block}`
  })
  const together = await Promise.all([atBlock(7n), atBlock(7n), atBlock(7n)])
  expect(together).toEqual(['state at 7', 'state at 7', 'state at 7'])
  expect(await atBlock(7n)).toBe('state at 7')
  expect(await atBlock(8n)).toBe('state at 8')
  expect(reads).toEqual([7n, 8n])
})

test('error: a failed read is not kept: the next call at the same block reads again', async () => {
  let calls = 0
  const atBlock = sharedPerBlock(async (block) => {
    calls += 1
    if (calls === 1) throw new Error('the node did not answer')
    return block
  })
  await expect(atBlock(3n)).rejects.toThrow('the node did not answer')
  expect(await atBlock(3n)).toBe(3n)
  expect(calls).toBe(2)
})
