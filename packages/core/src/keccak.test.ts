// keccak256Bytes answers viem's keccak256 (noble) before and after the WebAssembly Keccak is loaded, for any
// bytes, and each answer is its own (the hasher is reused; an answer must not change with the next hash).
// The ids and log hashes built on it are held to viem's here with it loaded, and by governance/messages.test.ts
// (with noble) over the ethers vectors and any message.
import fc from 'fast-check'
import { bytesToHex, encodeAbiParameters, hashTypedData, keccak256, stringToBytes } from 'viem'
import { expect, test } from 'vitest'
import { logEntryHash } from './governance/log.ts'
import { proposalTypedData, voteId, voteTypedData } from './governance/messages.ts'
import { domain, proposal, vote, voteV2 } from './governance/messages-test-helpers.ts'
import { keccak256Bytes, loadWasmKeccak } from './keccak.ts'
import { typedDataDigest } from './typed-data-digest.ts'

const EMPTY_KECCAK = '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'
const bytesOfAnyLength = fc.uint8Array({ minLength: 0, maxLength: 1_000 })

test('behavior: before the WebAssembly Keccak is loaded, keccak256Bytes answers as viem does', () => {
  expect(bytesToHex(keccak256Bytes(new Uint8Array()))).toBe(EMPTY_KECCAK)
  fc.assert(
    fc.property(bytesOfAnyLength, (bytes) => {
      expect(bytesToHex(keccak256Bytes(bytes))).toBe(keccak256(bytes))
    }),
    { numRuns: 50 },
  )
})

test('behavior: once loaded, the WebAssembly Keccak answers what viem answers for any bytes, each answer its own', async () => {
  await Promise.all([loadWasmKeccak(), loadWasmKeccak()])
  expect(bytesToHex(keccak256Bytes(new Uint8Array()))).toBe(EMPTY_KECCAK)
  // 136 bytes is Keccak-256's rate: lengths around it fill a block exactly, or spill into the next.
  for (const length of [1, 32, 64, 135, 136, 137, 272, 4_096]) {
    const bytes = new Uint8Array(length).map((_, i) => (i * 7 + length) & 0xff)
    expect(bytesToHex(keccak256Bytes(bytes)), `${length} bytes`).toBe(keccak256(bytes))
  }
  fc.assert(
    fc.property(bytesOfAnyLength, bytesOfAnyLength, (first, second) => {
      const firstHash = keccak256Bytes(first)
      const secondHash = keccak256Bytes(second)
      expect(bytesToHex(firstHash)).toBe(keccak256(first))
      expect(bytesToHex(secondHash)).toBe(keccak256(second))
    }),
    { numRuns: 300 },
  )
  expect(bytesToHex(keccak256Bytes(stringToBytes('guildhall')))).toBe(keccak256(stringToBytes('guildhall')))
})

test('behavior: once loaded, the ids and log hashes built on it equal viem’s hashTypedData and keccak256 of the entry', async () => {
  await loadWasmKeccak()
  expect(typedDataDigest(proposalTypedData(domain, proposal))).toBe(
    hashTypedData(proposalTypedData(domain, proposal)),
  )
  for (const message of [vote(), vote({ reason: '' }), voteV2()])
    expect(voteId(domain, message)).toBe(hashTypedData(voteTypedData(domain, message)))
  const entry = {
    seq: 7,
    kind: 'vote',
    messageId: voteId(domain, vote()),
    signature: `0x${'ab'.repeat(65)}`,
    prevHash: keccak256(stringToBytes('the entry before')),
  } as const
  expect(logEntryHash(entry)).toBe(
    keccak256(
      encodeAbiParameters(
        [{ type: 'uint64' }, { type: 'string' }, { type: 'bytes32' }, { type: 'bytes' }, { type: 'bytes32' }],
        [BigInt(entry.seq), entry.kind, entry.messageId, entry.signature, entry.prevHash],
      ),
    ),
  )
})
