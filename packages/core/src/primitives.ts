/**
 * The building blocks of core's schemas, each defined once: addresses, hex (digests, signatures) and
 * whole numbers as JSON carries them (decimal strings: JSON has no bigint).
 */
import { type Address, type Hex, maxUint256, stringToBytes } from 'viem'
import { keccak256Bytes } from './keccak.ts'
import { z } from './zod.ts'

/** Longest signature accepted: 4096 bytes, room for ERC-6492 wrapped contract-wallet signatures. */
export const SIGNATURE_MAX_BYTES = 4096

const asHex = z.transform((value: string) => value as Hex)

/** An EVM chain id. */
export const chainIdSchema = z.int().check(z.positive())

const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/

/**
 * Whether `address` is 0x and 40 hex digits written as EIP-55 checksums them: each letter upper-case where
 * the keccak-256 of the lower-case digits has a nibble of 8 or more. Hashed by core's Keccak (WebAssembly once
 * loaded, ADR 086), not viem's `checksumAddress` (noble): every address a request carries is checked, and
 * viem's took 3 to 4 % of the API's main thread in a closing hour.
 */
export function isChecksummedAddress(address: string): boolean {
  if (!ADDRESS_PATTERN.test(address)) return false
  const digits = address.slice(2)
  const lower = digits.toLowerCase()
  const hash = keccak256Bytes(stringToBytes(lower))
  for (let i = 0; i < 40; i++) {
    const digit = digits.charCodeAt(i)
    if (lower.charCodeAt(i) < 0x61) continue // 0-9 carry no case
    const nibble = ((hash[i >> 1] as number) >> (i % 2 === 0 ? 4 : 0)) & 0x0f
    if (digit < 0x61 !== nibble >= 8) return false
  }
  return true
}

/** An EIP-55 checksummed address. */
export const checksummedAddressSchema = z.pipe(
  z
    .string()
    .check(
      z.regex(ADDRESS_PATTERN, 'must be 0x followed by 40 hex digits'),
      z.refine(isChecksummedAddress, 'must be EIP-55 checksummed'),
    ),
  z.transform((a: string) => a as Address),
)

/** A 32-byte digest as the server writes it (lower-case hex): the id of a proposal or a vote. */
export const BYTES32_PATTERN = /^0x[0-9a-f]{64}$/
export const bytes32Schema = z.pipe(
  z.string().check(z.regex(BYTES32_PATTERN, 'must be 0x followed by 64 lower-case hex digits')),
  asHex,
)

/** Hex of any length and case: a result bundle's fields, which the recount checks itself. */
export const hexSchema = z.pipe(z.string().check(z.regex(/^0x[0-9a-fA-F]*$/)), asHex)

/**
 * A signature: whole bytes of hex, at most SIGNATURE_MAX_BYTES. Possibly empty (`0x`): a Safe's on-chain
 * approved hash or message has no signature bytes.
 */
export const signatureSchema = z.pipe(
  z
    .string()
    .check(
      z.maxLength(2 + 2 * SIGNATURE_MAX_BYTES, `must be at most ${SIGNATURE_MAX_BYTES} bytes`),
      z.regex(/^0x(?:[0-9a-fA-F]{2})*$/, 'must be 0x followed by whole bytes of hex'),
    ),
  asHex,
)

/**
 * A uint256 as a decimal string without leading zeros, as signed messages and the configured rules carry
 * it; `what` names the unit in the refusal.
 */
export const uint256StringSchema = (what: string) =>
  z.string().check(
    // Aborts: the range check would throw on what BigInt cannot read ('1.5', 'x').
    z.regex(/^(0|[1-9]\d{0,77})$/, {
      message: `must be a whole number of ${what}, as a decimal string`,
      abort: true,
    }),
    z.refine((value) => BigInt(value) <= maxUint256, 'must fit in uint256'),
  )

/** An amount of the governance token in its base units (wei for 18 decimals): a signed proposal's quorum. */
export const tokenAmountSchema = uint256StringSchema('token units (base units, like 1000000000000000000)')

/** A whole number in an API answer (a bigint, a block number), as the server writes it: a decimal string. */
export const decimalStringSchema = z.string().check(z.regex(/^\d+$/))
