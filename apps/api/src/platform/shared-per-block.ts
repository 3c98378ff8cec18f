// One chain read per block, however many requests ask: a page many members watch (the treasury, a
// proposal's execution) costs the node one read of its state per block, not one per page view.

/**
 * Wraps `read` so that calls for the block it last read share that read's answer (still in flight or
 * done). Another block reads again. A read that fails is not kept: the next call tries again.
 */
export function sharedPerBlock<T>(read: (block: bigint) => Promise<T>): (block: bigint) => Promise<T> {
  let kept: { block: bigint; answer: Promise<T> } | undefined
  return (block) => {
    if (kept?.block === block) return kept.answer
    const entry = { block, answer: read(block) }
    kept = entry
    entry.answer.catch(() => {
      if (kept === entry) kept = undefined
    })
    return entry.answer
  }
}
