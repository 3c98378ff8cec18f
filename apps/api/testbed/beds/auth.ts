// The setup the sign-in and session tests share (sign-in-routes, sessions, sign-in-policy): a real anvil with
// real Safes and the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), the app on them and a
// second app on the same database whose chain node is down, and sign-in over HTTP in process, field by
// field. A test file calls useAuthBed() once at its top; the bindings below are live (ES modules).
import { buildSignInMessage, LOCAL_CHAIN_ID, signInStatement } from '@guildhall/core'
import { type AnvilInstance, getFreePort } from '@guildhall/devchain/anvil'
import { deploySafes, type SafeDeployment } from '@guildhall/devchain/safe'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Hex, PrivateKeyAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { startChain } from '../../src/demo/local-chain.ts'
import type { Database } from '../../src/platform/db/client.ts'
import { authNonces, sessions } from '../../src/platform/db/schema.ts'
import { testDatabase } from '../../src/platform/db/test-database.ts'
import { member } from '../signers.ts'
import { jsonHeaders, ORIGIN, testSettings } from '../test-app.ts'

export const DAO_NAME = 'Guildhall Test DAO'
/** An EOA no other test uses. */
export const freshAccount = () => privateKeyToAccount(generatePrivateKey())
export const ada = member(1)
export const ben = member(2)

export let anvil: AnvilInstance
export let safes: SafeDeployment
export let database: Database
export let app: FastifyInstance
/** Same database, but its chain node is down. */
export let appChainDown: FastifyInstance

export const envFor = (rpcUrl: string, env: Record<string, string> = {}) =>
  testSettings({
    rpcUrl,
    // High enough for this whole file; the flood test builds its own app with a low limit.
    env: { DAO_NAME, AUTH_RATE_LIMIT_PER_MINUTE: '1000', ...env },
  })

/** name=value of a Set-Cookie header. */
export function cookieOf(response: LightMyRequestResponse, name: string): string | undefined {
  const cookie = response.cookies.find((c) => c.name === name)
  return cookie ? `${cookie.name}=${cookie.value}` : undefined
}

export async function newNonce(server = app) {
  const response = await server.inject({
    method: 'POST',
    url: '/api/auth/nonce',
    headers: { origin: ORIGIN },
  })
  expect(response.statusCode).toBe(200)
  return {
    nonce: response.json().nonce as string,
    preauth: cookieOf(response, 'guildhall_preauth') as string,
  }
}

// Not testbed/sign-in.ts: these tests run the app in process (app.inject, not fetch) and alter the
// message field by field, which that helper's fixed message does not allow.
export function messageFor(
  address: Hex,
  nonce: string,
  overrides: { domain?: string; origin?: string; chainId?: number; issuedAt?: Date } = {},
) {
  return buildSignInMessage({
    address,
    chainId: overrides.chainId ?? LOCAL_CHAIN_ID,
    nonce,
    domain: overrides.domain ?? new URL(ORIGIN).host,
    origin: overrides.origin ?? ORIGIN,
    statement: signInStatement(DAO_NAME),
    issuedAt: overrides.issuedAt ?? new Date(),
  })
}

export function verify(body: unknown, cookie: string | undefined, server = app) {
  return server.inject({
    method: 'POST',
    url: '/api/auth/verify',
    headers: { ...jsonHeaders, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(body),
  })
}

/** A full EOA sign-in; returns the verify response and the message. */
export async function signIn(signer: PrivateKeyAccount = ada) {
  const { nonce, preauth } = await newNonce()
  const message = messageFor(signer.address, nonce)
  const signature = await signer.signMessage({ message })
  return { response: await verify({ message, signature }, preauth), message, signature, preauth, nonce }
}

export const session = (cookie: string | undefined) =>
  app.inject({ method: 'GET', url: '/api/auth/session', headers: cookie ? { cookie } : {} })

export const sessionRows = async (address: string) =>
  (await database.db.select().from(sessions)).filter((s) => s.address === address)

/** The message with `edit` applied, signed by `signer` as it stands (what a tampering client would send). */
export async function signedEdit(signer: PrivateKeyAccount, edit: (message: string) => string) {
  const { nonce, preauth } = await newNonce()
  const message = edit(messageFor(signer.address, nonce))
  return { message, signature: await signer.signMessage({ message }), preauth, nonce }
}

/** Adds an optional field line right after `Issued At` (EIP-4361 order: Expiration Time, Not Before, …). */
export const withLineAfterIssuedAt = (line: string) => (message: string) =>
  message.replace(/^(Issued At: .*)$/m, `$1\n${line}`)

export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()

export const nonceRow = async (nonce: string) =>
  (await database.db.select().from(authNonces)).find((row) => row.nonce === nonce)

/** Starts the bed before the file's tests and stops it after them. */
export function useAuthBed() {
  beforeAll(async () => {
    anvil = await startChain()
    safes = await deploySafes({ rpcUrl: anvil.url, chainId: LOCAL_CHAIN_ID })
    database = await testDatabase()
    app = await buildApp({ settings: envFor(anvil.url), database })
    appChainDown = await buildApp({ settings: envFor(`http://127.0.0.1:${await getFreePort()}`), database })
  }, 60_000)

  afterAll(async () => {
    await app?.close()
    await appChainDown?.close()
    await database?.close()
    await anvil?.stop()
  })
}
