import { useEffect, useState } from 'react'

/** How long a search waits after the last keystroke before it asks the server. */
export const SEARCH_PAUSE_MS = 300

/**
 * `value` once it has stayed the same for `delayMs` (typing has paused), so a request goes out per pause
 * rather than per keystroke; `settle` takes the current value at once (a submit that must not wait).
 */
export function useDebouncedValue<T>(value: T, delayMs: number): [T, () => void] {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(() => value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs])
  return [settled, () => setSettled(() => value)]
}
