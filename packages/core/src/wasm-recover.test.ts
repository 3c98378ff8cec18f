// The WebAssembly recovery (wasm-recover.mjs) answers as viem's recoverAddress does, a failure being null, and
// as digestSigner does: for both encodings of the recovery bit, and for bytes that are no signature.
import fc from 'fast-check'
import { type Hex, keccak256, numberToHex, recoverAddress, stringToHex } from 'viem'
import { privateKeyToAccount, sign } from 'viem/accounts'
import { expect, test } from 'vitest'
import { digestSigner } from './index.ts'
import { wasmRecoverSigner } from './wasm-recover.mjs'

const ada = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const viemAnswer = (hash: Hex, signature: Hex) => recoverAddress({ hash, signature }).catch(() => null)

test('behavior: wasmRecoverSigner answers what viem recoverAddress answers, null where viem throws, and what core digestSigner answers', async () => {
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
    expect(wasmRecoverSigner(signed, signature)).toBe(ada.address)
    expect(wasmRecoverSigner(signed, signature)).toBe(await viemAnswer(signed, signature))
    expect(wasmRecoverSigner(signed, signature)).toBe(digestSigner(signed, signature))
  }
  for (const signature of odd) {
    expect(wasmRecoverSigner(hash, signature), signature).toBe(await viemAnswer(hash, signature))
    expect(wasmRecoverSigner(hash, signature), signature).toBe(digestSigner(hash, signature))
  }
  expect(wasmRecoverSigner(hash, odd[6] as Hex)).toBe(ada.address)
  expect(wasmRecoverSigner(keccak256(stringToHex('another')), good)).not.toBe(ada.address)
})

/** secp256k1's group order: s and n − s sign the same message, with the other recovery bit. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const word = (value: bigint) => numberToHex(value, { size: 32 }).slice(2)

test('property: for any key and message, wasmRecoverSigner answers what viem recoverAddress and digestSigner answer: the signature, its recovery bit as 0/1, its high-s twin, and any 65 bytes', async () => {
  const key = fc.bigInt({ min: 1n, max: CURVE_ORDER - 1n }).map((d) => numberToHex(d, { size: 32 }))
  const bytes32 = fc
    .uint8Array({ minLength: 32, maxLength: 32 })
    .map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex)
  await fc.assert(
    fc.asyncProperty(
      key,
      bytes32,
      bytes32,
      bytes32,
      fc.integer({ min: 0, max: 255 }),
      async (privateKey, hash, r, s, v) => {
        const signed = await sign({ hash, privateKey, to: 'object' })
        const yParity = signed.yParity ?? 0
        const sValue = BigInt(signed.s)
        const forms: Hex[] = [
          `${signed.r}${signed.s.slice(2)}${(27 + yParity).toString(16)}` as Hex,
          `${signed.r}${signed.s.slice(2)}0${yParity}` as Hex,
          // The high-s twin: the same signer (recovery does not ask for low s, in viem or here).
          `${signed.r}${word(CURVE_ORDER - sValue)}${(28 - yParity).toString(16)}` as Hex,
          // Any 65 bytes: most are no signature, some recover some address; both must agree.
          `${r}${s.slice(2)}${v.toString(16).padStart(2, '0')}` as Hex,
        ]
        const signer = privateKeyToAccount(privateKey).address
        for (const [index, signature] of forms.entries()) {
          const answer = wasmRecoverSigner(hash, signature)
          expect(answer, signature).toBe(await viemAnswer(hash, signature))
          expect(answer, signature).toBe(digestSigner(hash, signature))
          if (index < 3) expect(answer, signature).toBe(signer)
        }
      },
    ),
    { numRuns: 200 },
  )
})
