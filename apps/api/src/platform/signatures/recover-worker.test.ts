// The signature pool's task (recover-worker.mjs): each check answered in its order, with its signer from core's
// WebAssembly recovery (held to viem's answers in core's wasm-recover.test.ts) and its run time.
import { keccak256, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import recover from './recover-worker.mjs'

const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

test('behavior: the pool task answers each check in its order with its signer and the time its recovery took', async () => {
  const hash = keccak256(stringToHex('a vote'))
  const signature = await ada.sign({ hash })
  const answers = recover({
    checks: [
      { hash, signature: `0x${'00'.repeat(64)}1b` },
      { hash, signature },
    ],
  })
  expect(answers.map(({ signer }) => signer)).toEqual([null, ada.address])
  for (const { runMs } of answers) expect(runMs).toBeGreaterThanOrEqual(0)
})
