import {
  buildSignInMessage,
  nonceResponseSchema,
  type SessionResponse,
  sessionResponseSchema,
  signInStatement,
  verifyRequestSchema,
} from '@guildhall/core'
// A type only: importing RainbowKit's (identity) createAuthenticationAdapter would pull the whole wallet kit
// into the first load (ADR 008).
import type { createAuthenticationAdapter } from '@rainbow-me/rainbowkit'
import type { QueryClient } from '@tanstack/react-query'
import { getAddress } from 'viem'
import { apiFetch } from '../../lib/api.ts'
import { CURRENT_SESSION_QUERY_KEY } from './queries/current-session.ts'
import { announceAuthChange } from './sign-in-state.ts'
import { signOut } from './sign-out.ts'

/**
 * Handed to RainbowKit when getNonce could not get a nonce even after retrying. RainbowKit 2.2 keeps
 * the sign-in button disabled after a failed getNonce until the modal is reopened; with this stand-in
 * the button stays usable, and createMessage fetches a real nonce when it is pressed (failing there
 * shows "Error preparing message, please retry!" and the next press tries again).
 */
const NONCE_LATER = 'nonce-not-fetched-yet'

/**
 * A verification that failed for a reason other than the signature (no answer, a server error). The
 * patched RainbowKit (ADR 035) shows "Oops, something went wrong!" for an error carrying
 * `guildhallUnexpected`, and "Error verifying signature, please retry!" for any other.
 */
export class UnexpectedVerifyFailure extends Error {
  readonly guildhallUnexpected = true
  constructor(cause: 'network' | number) {
    super(`sign-in verification failed unexpectedly (${cause})`)
    this.name = 'UnexpectedVerifyFailure'
  }
}

/** Pauses between nonce attempts; a 429's Retry-After is honoured up to the last one. */
const NONCE_RETRY_DELAYS_MS = [400, 1_200] as const
const MAX_RETRY_AFTER_MS = 5_000

export interface AuthenticationAdapterOptions {
  /** The public origin (config `appUrl`): the SIWE domain is its host, the URI the origin itself. */
  appUrl: string
  daoName: string
  queryClient: QueryClient
  /** The connected wallet's address, undefined while none is connected. */
  connectedAddress: () => string | undefined
  sleep?: (ms: number) => Promise<void>
}

/** RainbowKit does not export the adapter's type; it is what its factory returns. */
export type GuildhallAuthenticationAdapter = ReturnType<typeof createAuthenticationAdapter<string>>

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function retryable(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500
}

/**
 * Guildhall's sign-in (ADR 007) as RainbowKit 2.2's adapter: getNonce, createMessage, verify, and signOut
 * as RainbowKit asks for it (the app's own sign-out is `signOut` of sign-out.ts).
 */
export function createGuildhallAuthenticationAdapter({
  appUrl,
  daoName,
  queryClient,
  connectedAddress,
  sleep = defaultSleep,
}: AuthenticationAdapterOptions): GuildhallAuthenticationAdapter {
  const publicUrl = new URL(appUrl)
  // `Sign in to <DAO name>.`, reduced to what the SIWE grammar allows; the API computes the same.
  const statement = signInStatement(daoName)
  /** Each nonce goes into one message only; a retry after a failure signs a fresh one. */
  const usedNonces = new Set<string>()

  async function fetchNonce(): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      let status = 0
      let retryAfterMs: number | undefined
      try {
        const response = await apiFetch('POST', '/api/auth/nonce')
        if (response.ok) return nonceResponseSchema.parse(await response.json()).nonce
        status = response.status
        const retryAfter = Number(response.headers.get('retry-after'))
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1_000
      } catch {
        // network down (status 0) or a malformed answer: both worth another try
      }
      const delay = NONCE_RETRY_DELAYS_MS[attempt]
      if (delay === undefined || !retryable(status)) throw new Error(`nonce request failed (${status})`)
      await sleep(Math.min(retryAfterMs ?? delay, MAX_RETRY_AFTER_MS))
    }
  }

  function message(nonce: string, address: `0x${string}`, chainId: number): string {
    usedNonces.add(nonce)
    return buildSignInMessage({
      domain: publicUrl.host,
      origin: publicUrl.origin,
      statement,
      address: getAddress(address),
      chainId,
      nonce,
      issuedAt: new Date(),
    })
  }

  const adapter: GuildhallAuthenticationAdapter = {
    async getNonce() {
      try {
        return await fetchNonce()
      } catch {
        return NONCE_LATER
      }
    },

    createMessage({ nonce, address, chainId }) {
      // Synchronous when the nonce is fresh, so RainbowKit goes straight to "Waiting for signature".
      if (nonce !== NONCE_LATER && !usedNonces.has(nonce)) return message(nonce, address, chainId)
      return fetchNonce().then((fresh) => message(fresh, address, chainId))
    },

    async verify({ message: text, signature }) {
      const body = verifyRequestSchema.parse({ message: text, signature })
      let response: Response
      try {
        // Not resent when the connection fails: the first may have consumed the nonce, a replay is refused.
        response = await apiFetch('POST', '/api/auth/verify', body)
      } catch {
        throw new UnexpectedVerifyFailure('network')
      }
      // 400/401/413 are final for this message, 429 and 503 (contract wallet check) are worth a retry:
      // all show RainbowKit's "Error verifying signature, please retry!". Any other server error says
      // nothing about the signature: "Oops, something went wrong!".
      if (response.status >= 500 && response.status !== 503)
        throw new UnexpectedVerifyFailure(response.status)
      if (response.status !== 200) return false
      const parsed = sessionResponseSchema.safeParse(await response.json().catch(() => null))
      if (parsed.success && parsed.data.session) {
        queryClient.setQueryData<SessionResponse>(CURRENT_SESSION_QUERY_KEY, parsed.data)
      } else {
        await queryClient.invalidateQueries({ queryKey: CURRENT_SESSION_QUERY_KEY })
      }
      announceAuthChange({ type: 'signed-in' })
      return true
    },

    async signOut() {
      // RainbowKit calls this on every disconnect and on every `change` event with accounts, even when
      // the wallet re-announces the same account (unlock, EIP-6963 re-announce). Proving the same
      // address again would be pointless, so that case keeps the session; a different address or a
      // disconnect signs out. If this ever runs before wagmi has the new account, the provider's
      // foreign-session check still ends the session.
      const session = queryClient.getQueryData<SessionResponse>(CURRENT_SESSION_QUERY_KEY)?.session
      const connected = connectedAddress()
      if (session && connected?.toLowerCase() === session.address.toLowerCase()) return
      await signOut(queryClient)
    },
  }
  return adapter
}
