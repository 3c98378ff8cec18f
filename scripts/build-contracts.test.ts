import { expect, test } from 'vitest'
import { buildContracts } from './build-contracts.ts'

test('behavior: every committed ABI/bytecode module matches a fresh compile (build-contracts --check)', () => {
  const result = buildContracts({ check: true })
  expect(result.message).toMatch(/up to date/)
  expect(result.ok).toBe(true)
}, 60_000)
