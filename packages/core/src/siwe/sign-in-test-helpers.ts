// Shared by the SIWE tests: our deployment, one signer (anvil account 1), and the API's stages of a sign-in.
import { verifyMessage } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { verifyRequestSchema } from '../api/auth.ts'
import { signInStatement } from './builder.ts'
import type { SiweFields } from './fields.ts'
import { parseSiweMessageStrict, type SiweParseOptions } from './parser.ts'
import { checkSiwePolicy, type SiwePolicy } from './policy.ts'

export const DOMAIN = 'dao.example'
export const ORIGIN = 'https://dao.example'
export const STATEMENT = signInStatement('Guildhall DAO')
export const NOW = Date.parse('2026-03-01T12:00:00.000Z')
export const NONCE = 'q8RmV2kP0xYz7LwA'
export const signer = privateKeyToAccount(
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
)
export const MINUTE = 60_000

export const policy = (overrides: Partial<SiwePolicy> = {}): SiwePolicy => ({
  domain: DOMAIN,
  origin: ORIGIN,
  allowedChainIds: [31337, 31338],
  statement: STATEMENT,
  now: NOW,
  nonce: NONCE,
  ...overrides,
})

/** Fields of the message our web app builds, before any tampering. */
export const goodFields = (overrides: Partial<SiweFields> = {}): SiweFields => ({
  domain: DOMAIN,
  address: signer.address,
  statement: STATEMENT,
  uri: ORIGIN,
  version: '1',
  chainId: 31337,
  nonce: NONCE,
  issuedAt: new Date(NOW).toISOString(),
  ...overrides,
})

export type Outcome =
  | { stage: 'request'; reason: string }
  | { stage: 'parse'; reason: string }
  | { stage: 'policy'; code: string; nonceStillUsable: boolean }
  | { stage: 'signature' }
  | { stage: 'accepted'; fields: SiweFields }

/** The API's order: request schema → strict parse (400) → policy (401) → signature (401). */
export async function signIn(
  message: string,
  signature: string,
  policyOptions: SiwePolicy,
  parseOptions: SiweParseOptions = {},
): Promise<Outcome> {
  const body = verifyRequestSchema.safeParse({ message, signature })
  if (!body.success) return { stage: 'request', reason: body.error.message }
  const parsed = parseSiweMessageStrict(message, parseOptions)
  if (!parsed.ok) return { stage: 'parse', reason: parsed.reason }
  const checked = checkSiwePolicy(parsed.fields, policyOptions)
  if (!checked.ok) return { stage: 'policy', code: checked.code, nonceStillUsable: checked.nonceStillUsable }
  const valid = await verifyMessage({
    address: parsed.fields.address,
    message,
    signature: body.data.signature,
  }).catch(() => false)
  return valid ? { stage: 'accepted', fields: parsed.fields } : { stage: 'signature' }
}

/** Signs `message` with our signer and runs it through the API's stages with our policy. */
export async function signedSignIn(message: string, overrides: Partial<SiwePolicy> = {}): Promise<Outcome> {
  return signIn(message, await signer.signMessage({ message }), policy(overrides))
}
