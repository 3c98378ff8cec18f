// SIGNATURE_THREADS (signatures.ts): how many worker threads check signatures.
import { availableParallelism } from 'node:os'
import { expect, test } from 'vitest'
import { parseEnv } from './env.ts'
import { base, envError } from './env-test-helpers.ts'
import { sharedMachineSignatureThreads } from './signatures.ts'

test('SIGNATURE_THREADS defaults to the cores Node may use; 1 to 64 are taken; anything else is refused by name', () => {
  expect(parseEnv(base).signatureThreads).toBe(availableParallelism())
  expect(parseEnv({ ...base, SIGNATURE_THREADS: '1' }).signatureThreads).toBe(1)
  expect(parseEnv({ ...base, SIGNATURE_THREADS: '64' }).signatureThreads).toBe(64)
  for (const value of ['0', '65', '-1', '1.5', 'two', ''])
    expect(envError({ ...base, SIGNATURE_THREADS: value }).message, value).toContain('- SIGNATURE_THREADS:')
})

test('instances sharing one machine each get their share of its cores, at least one', () => {
  expect(sharedMachineSignatureThreads(1)).toBe(availableParallelism())
  expect(sharedMachineSignatureThreads(availableParallelism())).toBe(1)
  expect(sharedMachineSignatureThreads(availableParallelism() * 2 + 1)).toBe(1)
})
