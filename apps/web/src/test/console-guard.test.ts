import { expect, test } from 'vitest'
import { expectConsoleError, startConsoleGuard, stopConsoleGuard } from './console-guard.ts'

// setup.ts starts the guard before each test and stops it after; these tests stop it themselves
// to see what it reports, then start it again for setup.ts.

test('an unexpected console.error fails the test, quoting what was logged', () => {
  console.error('Warning: %s is not wrapped in act(...)', 'An update to Widget', new Error('boom'))
  expect(() => stopConsoleGuard()).toThrow(
    /unexpected console\.error:\nWarning: %s is not wrapped in act\(\.\.\.\) An update to Widget Error: boom/,
  )
  startConsoleGuard()
})

test('a console.error the test declared with expectConsoleError passes', () => {
  expectConsoleError(/The above error occurred/)
  console.error('The above error occurred in the <Broken> component.')
  console.error('The above error occurred in the <Other> component.')
  expect(() => stopConsoleGuard()).not.toThrow()
  startConsoleGuard()
})

test('a declared console.error that never comes fails the test', () => {
  expectConsoleError(/Invalid ID/)
  expect(() => stopConsoleGuard()).toThrow('expected a console.error matching /Invalid ID/, none was logged')
  startConsoleGuard()
})

test('the real console.error is back after the guard stops', () => {
  const guarded = console.error
  stopConsoleGuard()
  expect(console.error).not.toBe(guarded)
  startConsoleGuard()
})
