import { cleanup } from '@testing-library/react'
import { afterEach, beforeEach } from 'vitest'
import { startConsoleGuard, stopConsoleGuard } from './console-guard.ts'

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
beforeEach(() => startConsoleGuard())
afterEach(() => {
  cleanup()
  stopConsoleGuard()
})
