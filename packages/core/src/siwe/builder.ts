// The app's sign-in message: the DAO's statement and the one builder the web app uses.
import { type Address, isAddress } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { parseSiweMessageStrict } from './parser.ts'
import { normaliseOrigin } from './policy.ts'

/**
 * The statement for a DAO: `Sign in to <name>.`, with the name reduced to what the SIWE grammar allows (accents
 * dropped, other characters outside RFC 3986 reserved/unreserved replaced by spaces). Web and API both call this,
 * so the statements are equal.
 */
export function signInStatement(daoName: string): string {
  const name = daoName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
  return name === '' ? 'Sign in.' : `Sign in to ${name}.`
}

export interface SignInMessageInput {
  address: Address
  chainId: number
  nonce: string
  /** The public host, e.g. `dao.example` or `localhost:3000`. */
  domain: string
  /** The public origin; becomes the URI. */
  origin: string
  statement: string
  issuedAt?: Date
}

/**
 * Builds the app's sign-in message with viem's `createSiweMessage` (version 1, no resources) — the only way the
 * app builds one, so the server's canonical parse holds. Throws if the inputs cannot make a valid message.
 */
export function buildSignInMessage(input: SignInMessageInput): string {
  // Lower case carries no checksum; mixed case must be the right one (viem's getAddress would silently fix it).
  if (typeof input.address !== 'string' || !isAddress(input.address, { strict: true })) {
    throw new Error('Cannot build a valid sign-in message: the address is not a valid (EIP-55) address')
  }
  const message = createSiweMessage({
    address: input.address,
    chainId: input.chainId,
    domain: input.domain,
    nonce: input.nonce,
    uri: normaliseOrigin(input.origin),
    version: '1',
    statement: input.statement,
    issuedAt: input.issuedAt ?? new Date(),
  })
  const parsed = parseSiweMessageStrict(message)
  if (!parsed.ok) throw new Error(`Cannot build a valid sign-in message: ${parsed.reason}`)
  const f = parsed.fields
  // createSiweMessage coerces (an undefined nonce becomes the valid nonce "undefined"): insist on our inputs.
  if (
    f.domain !== input.domain ||
    f.chainId !== input.chainId ||
    f.nonce !== input.nonce ||
    f.statement !== input.statement ||
    f.address.toLowerCase() !== String(input.address).toLowerCase()
  ) {
    throw new Error('Cannot build a valid sign-in message: the inputs do not survive as given')
  }
  return message
}
