// Sign-In with Ethereum over HTTP as the web app does it (nonce, EIP-4361 message, personal_sign, verify),
// with a viem account, for the tests and the bench that need a signed-in member: of a running server
// (signIn), or of an app in the test's own process (signInOnApp).
import { buildSignInMessage, LOCAL_CHAIN_ID, signInStatement } from '@guildhall/core'
import type { FastifyInstance } from 'fastify'
import type { Hex, PrivateKeyAccount } from 'viem'

export const SESSION_COOKIE = 'guildhall_session'
export const PREAUTH_COOKIE = 'guildhall_preauth'

/** The value of a response's Set-Cookie named `name`. */
export function cookieValue(response: Response, name: string): string | undefined {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';')
    const separator = pair.indexOf('=')
    if (pair.slice(0, separator) === name) return pair.slice(separator + 1)
  }
  return undefined
}

/** The signed sign-in message of `account` for `nonce` at `origin`, as the web app writes it. */
export async function signedSignInMessage(
  account: PrivateKeyAccount,
  { origin, nonce, daoName }: { origin: string; nonce: string; daoName: string },
): Promise<{ message: string; signature: Hex }> {
  const message = buildSignInMessage({
    address: account.address,
    chainId: LOCAL_CHAIN_ID,
    nonce,
    domain: new URL(origin).host,
    origin,
    statement: signInStatement(daoName),
    issuedAt: new Date(),
  })
  return { message, signature: await account.signMessage({ message }) }
}

export type PreparedSignIn = {
  account: PrivateKeyAccount
  nonce: string
  /** The pre-auth cookie (name=value) the verify must send. */
  preauth: string
  message: string
  signature: Hex
}

/** Everything of a sign-in but the verify: a nonce from the server, the message signed. */
export async function prepareSignIn(
  origin: string,
  account: PrivateKeyAccount,
  { daoName, timeoutMs = 30_000 }: { daoName: string; timeoutMs?: number },
): Promise<PreparedSignIn> {
  const response = await fetch(`${origin}/api/auth/nonce`, {
    method: 'POST',
    headers: { origin },
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (response.status !== 200)
    throw new Error(`sign-in nonce: HTTP ${response.status} ${await response.text()}`)
  const { nonce } = (await response.json()) as { nonce: string }
  const preauth = cookieValue(response, PREAUTH_COOKIE)
  if (!preauth) throw new Error('the nonce response set no pre-auth cookie')
  const signed = await signedSignInMessage(account, { origin, nonce, daoName })
  return { account, nonce, preauth: `${PREAUTH_COOKIE}=${preauth}`, ...signed }
}

/** POST /api/auth/verify of a prepared sign-in (`userAgent`: the browser the session will be listed as). */
export function verifySignIn(
  origin: string,
  signIn: PreparedSignIn,
  { timeoutMs = 30_000, userAgent }: { timeoutMs?: number; userAgent?: string } = {},
): Promise<Response> {
  return fetch(`${origin}/api/auth/verify`, {
    method: 'POST',
    headers: {
      origin,
      'content-type': 'application/json',
      cookie: signIn.preauth,
      ...(userAgent ? { 'user-agent': userAgent } : {}),
    },
    body: JSON.stringify({ message: signIn.message, signature: signIn.signature }),
    signal: AbortSignal.timeout(timeoutMs),
  })
}

/** Signs `account` in on the server at `origin`; returns its session cookie (name=value). */
export async function signIn(origin: string, account: PrivateKeyAccount, daoName: string): Promise<string> {
  const verify = await verifySignIn(origin, await prepareSignIn(origin, account, { daoName }))
  const token = cookieValue(verify, SESSION_COOKIE)
  if (verify.status !== 200 || !token)
    throw new Error(`sign-in verify: HTTP ${verify.status} ${await verify.text()}`)
  return `${SESSION_COOKIE}=${token}`
}

/** Signs `account` in on `app` (in process) from its origin `origin`; returns its session cookie (name=value). */
export async function signInOnApp(
  app: FastifyInstance,
  account: PrivateKeyAccount,
  { origin, daoName }: { origin: string; daoName: string },
): Promise<string> {
  const nonce = await app.inject({ method: 'POST', url: '/api/auth/nonce', headers: { origin } })
  const preauth = nonce.cookies.find((cookie) => cookie.name === PREAUTH_COOKIE)
  if (nonce.statusCode !== 200 || !preauth)
    throw new Error(`sign-in nonce: HTTP ${nonce.statusCode} ${nonce.body}`)
  const signed = await signedSignInMessage(account, { origin, nonce: nonce.json().nonce, daoName })
  const verify = await app.inject({
    method: 'POST',
    url: '/api/auth/verify',
    headers: { origin, 'content-type': 'application/json', cookie: `${PREAUTH_COOKIE}=${preauth.value}` },
    payload: JSON.stringify(signed),
  })
  const session = verify.cookies.find((cookie) => cookie.name === SESSION_COOKIE)
  if (verify.statusCode !== 200 || !session)
    throw new Error(`sign-in verify: HTTP ${verify.statusCode} ${verify.body}`)
  return `${SESSION_COOKIE}=${session.value}`
}
