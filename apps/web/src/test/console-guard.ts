/**
 * Unit tests of the web app fail on console.error they did not ask for: React and the libraries
 * report real problems (act warnings, render errors, bad props) there, and a quiet test run keeps
 * those visible. A test that provokes an error on purpose declares it with `expectConsoleError`.
 */

type Expectation = { pattern: RegExp; seen: number }

let expectations: Expectation[] = []
let unexpected: string[] = []
let original: typeof console.error | undefined

const describe = (value: unknown): string => {
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Declares that this test logs console.error matching `pattern` (at least once); such calls pass. */
export function expectConsoleError(pattern: RegExp): void {
  expectations.push({ pattern, seen: 0 })
}

export function startConsoleGuard(): void {
  expectations = []
  unexpected = []
  original = console.error
  console.error = (...args: unknown[]) => {
    const text = args.map(describe).join(' ')
    const match = expectations.find((e) => e.pattern.test(text))
    if (match) match.seen++
    else unexpected.push(text)
  }
}

/** Restores console.error; throws (failing the test) on unexpected calls or unmet expectations. */
export function stopConsoleGuard(): void {
  if (original) console.error = original
  original = undefined
  const problems = [
    ...unexpected.map((text) => `unexpected console.error:\n${text}`),
    ...expectations
      .filter((e) => e.seen === 0)
      .map((e) => `expected a console.error matching ${e.pattern}, none was logged`),
  ]
  expectations = []
  unexpected = []
  if (problems.length > 0) throw new Error(problems.join('\n\n'))
}
