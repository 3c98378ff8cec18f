// The worker's recovery (recover-worker.mjs) answers as viem's recoverAddress does, a failure being null, and as
// core's digestSigner does: for both encodings of the recovery bit, and for bytes that are no signature.
import { digestSigner } from '@guildhall/core'
import { type Hex, keccak256, recoverAddress, stringToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import recover, { recoverSigner } from './recover-worker.mjs'

const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const viemAnswer = (hash: Hex, signature: Hex) => recoverAddress({ hash, signature }).catch(() => null)

test('behavior: recoverSigner answers what viem recoverAddress answers, null where viem throws, and what core digestSigner answers', async () => {
  const cases: Hex[] = []
  for (let i = 0; i < 8; i++) {
    const hash = keccak256(stringToHex(`message ${i}`))
    const signature = await ada.sign({ hash })
    const v = Number.parseInt(signature.slice(130), 16)
    cases.push(signature, `${signature.slice(0, 130)}${(v - 27).toString(16).padStart(2, '0')}` as Hex)
  }
  const hash = keccak256(stringToHex('message 0'))
  const good = cases[0] as Hex
  const odd: Hex[] = [
    `0x${'00'.repeat(64)}1b`, // r = 0: no point
    `0x${'ff'.repeat(64)}1c`, // r and s beyond the curve's order
    `${good.slice(0, 130)}1d` as Hex, // v = 29
    `${good.slice(0, 130)}02` as Hex, // v = 2
    good.slice(0, 130) as Hex, // 64 bytes
    `${good}00` as Hex, // 66 bytes
    good.toUpperCase().replace('0X', '0x') as Hex,
  ]
  for (const [i, signature] of cases.entries()) {
    const signed = keccak256(stringToHex(`message ${Math.floor(i / 2)}`))
    expect(recoverSigner(signed, signature)).toBe(ada.address)
    expect(recoverSigner(signed, signature)).toBe(await viemAnswer(signed, signature))
    expect(recoverSigner(signed, signature)).toBe(digestSigner(signed, signature))
  }
  for (const signature of odd) {
    expect(recoverSigner(hash, signature), signature).toBe(await viemAnswer(hash, signature))
    expect(recoverSigner(hash, signature), signature).toBe(digestSigner(hash, signature))
  }
  expect(recoverSigner(hash, odd[6] as Hex)).toBe(ada.address)
  expect(recoverSigner(keccak256(stringToHex('another')), good)).not.toBe(ada.address)
})

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
