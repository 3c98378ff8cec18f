import { useSyncExternalStore } from 'react'

export interface Notice {
  id: number
  tone: 'error' | 'info'
  message: string
}

let notices: Notice[] = []
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => {
  for (const listener of listeners) listener()
}

/** Shows a message in the page's alert area until dismissed; the same message is not stacked twice. */
export function notify(message: string, tone: Notice['tone'] = 'error'): void {
  if (notices.some((n) => n.message === message)) return
  notices = [...notices, { id: nextId++, tone, message }]
  emit()
}

export function dismiss(id: number): void {
  notices = notices.filter((n) => n.id !== id)
  emit()
}

export function useNotices(): Notice[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => notices,
  )
}
