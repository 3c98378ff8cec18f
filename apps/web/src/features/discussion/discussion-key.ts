// A member's discussion key (ADR 052): a secp256k1 key made in this browser, authorised once by the
// member's wallet (an EIP-712 DiscussionKey naming it, its scopes and its expiry), which then signs their
// comments, reactions, flags and moderation with no wallet prompt.
import {
  DISCUSSION_KEY_SCOPES,
  DISCUSSION_LIMITS,
  type DiscussionKeyMessage,
  type DiscussionMessageKind,
  signWithDiscussionKey,
} from '@guildhall/core'
import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import { type Address, getAddress, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod/mini'
import { ApiRequestError, describeRequestError } from '../../lib/api.ts'
import { useDaoChain } from '../../lib/dao-chain.ts'
import { useAuthoriseKey } from './queries/member-keys.ts'

/** What the wallet is asked to allow, in the words the member reads before it opens. */
export const KEY_PROMPT =
  'Let this browser sign your comments, reactions and flags for 30 days. Proposals, votes and delegation still ask your wallet.'

/** A key is not used in its last minute: the server would refuse a message it signs a moment later. */
const EXPIRY_MARGIN_SECONDS = 60

const storedKeySchema = z.object({
  privateKey: z.string().check(z.regex(/^0x[0-9a-f]{64}$/)),
  key: z.string(),
  expires: z.number(),
  scopes: z.array(z.string()),
})
type StoredKey = z.infer<typeof storedKeySchema>

const storageKey = (chainId: number, member: Address) =>
  `guildhall.discussion-key.${chainId}.${member.toLowerCase()}`

const nowSeconds = () => Math.floor(Date.now() / 1000)

/** The member's usable key in this browser, or null (none, unreadable, about to expire). */
export function loadKey(chainId: number, member: Address): StoredKey | null {
  let raw: unknown
  try {
    raw = JSON.parse(localStorage.getItem(storageKey(chainId, member)) ?? 'null')
  } catch {
    return null
  }
  const parsed = storedKeySchema.safeParse(raw)
  if (!parsed.success || parsed.data.expires <= nowSeconds() + EXPIRY_MARGIN_SECONDS) return null
  return parsed.data
}

function storeKey(chainId: number, member: Address, stored: StoredKey) {
  localStorage.setItem(storageKey(chainId, member), JSON.stringify(stored))
}

/** Forgets this browser's key of `member` (revoked here, or refused by the server). */
export function forgetKey(chainId: number, member: Address, key?: Address) {
  const stored = loadKey(chainId, member)
  if (!key || stored?.key.toLowerCase() === key.toLowerCase())
    localStorage.removeItem(storageKey(chainId, member))
}

/** Server codes that say the stored key is of no use any more: a new one is authorised instead. */
const DEAD_KEY_CODES = new Set(['key_unknown', 'key_expired', 'key_revoked', 'key_scope'])

/** The DiscussionKey message for a new key: every scope, for the longest time the server allows. */
function newKeyMessage(member: Address, key: Address, now = nowSeconds()): DiscussionKeyMessage {
  return {
    member,
    key,
    scopes: [...DISCUSSION_KEY_SCOPES],
    expires: now + DISCUSSION_LIMITS.keyLifetimeMaxSeconds,
    timestamp: now,
  }
}

/** Where a key-signed action stands: the wallet authorises a key (first time only), then it is sent. */
export type KeySignedStatus =
  | { step: 'idle' }
  | { step: 'not-authorised' }
  | { step: 'authorising' }
  | { step: 'submitting' }
  | { step: 'done' }
  | { step: 'failed'; error: string }

type KeySignedKind<Message, Answer> = {
  kind: DiscussionMessageKind
  /** The message, built at the moment of signing (its timestamp, the author). */
  submit: (signed: { message: Message; signature: Hex }) => Promise<Answer>
  changes: (answer: Answer) => readonly QueryKey[]
}

const IDLE: KeySignedStatus = { step: 'idle' }

/**
 * A message signed by the member's discussion key. The first time (no usable key in this browser) the
 * wallet authorises a new key through the app's signed action (its refusals read as every signature's);
 * a key the server no longer accepts (expired, revoked, unknown) is replaced the same way, once.
 */
export function useKeySignedAction<Message, Answer>(action: KeySignedKind<Message, Answer>) {
  const { domain, token, address } = useDaoChain()
  const authorise = useAuthoriseKey()
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<KeySignedStatus>(IDLE)
  const running = useRef(false)

  async function keyFor(chainId: number, member: Address) {
    const stored = loadKey(chainId, member)
    if (stored) return stored
    setStatus({ step: 'authorising' })
    const privateKey = generatePrivateKey()
    const key = privateKeyToAccount(privateKey).address
    const message = newKeyMessage(member, key)
    const answer = await authorise.run(message)
    if (!answer) return null
    const fresh = { privateKey, key, expires: message.expires, scopes: message.scopes }
    storeKey(chainId, member, fresh)
    return fresh
  }

  /** Signs `build(author)` with the key and sends it; resolves with the answer, or undefined when it failed. */
  async function run(build: (author: Address) => Promise<Message> | Message): Promise<Answer | undefined> {
    if (running.current) return undefined
    if (!domain || !token || !address) {
      setStatus({ step: 'failed', error: 'Connect your wallet first.' })
      return undefined
    }
    running.current = true
    try {
      const member = getAddress(address)
      for (let attempt = 1; ; attempt++) {
        const stored = await keyFor(token.chainId, member)
        if (!stored) {
          // The wallet step's own sentence (a refusal, a wrong chain) is the authorisation's status.
          setStatus({ step: 'not-authorised' })
          return undefined
        }
        setStatus({ step: 'submitting' })
        const message = await build(member)
        const account = privateKeyToAccount(stored.privateKey as Hex)
        const { signature } = await signWithDiscussionKey(account, domain, action.kind, message as never)
        try {
          const answer = await action.submit({ message, signature })
          await Promise.all(
            action.changes(answer).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
          )
          setStatus({ step: 'done' })
          return answer
        } catch (error) {
          if (attempt === 1 && error instanceof ApiRequestError && DEAD_KEY_CODES.has(error.code ?? '')) {
            forgetKey(token.chainId, member)
            continue
          }
          throw error
        }
      }
    } catch (error) {
      setStatus({
        step: 'failed',
        error: describeRequestError(error, 'Something went wrong. Please try again.'),
      })
      return undefined
    } finally {
      running.current = false
    }
  }

  const busy = status.step === 'authorising' || status.step === 'submitting'
  const reset = () => {
    if (running.current) return
    setStatus(IDLE)
    authorise.reset()
  }
  const shown: Exclude<KeySignedStatus, { step: 'not-authorised' }> =
    status.step !== 'not-authorised'
      ? status
      : {
          step: 'failed',
          error:
            authorise.status.step === 'failed'
              ? authorise.status.error
              : 'This browser could not be authorised.',
        }
  return { status: shown, busy, run, reset }
}

/** Whether this browser holds a usable key of the connected member (so no wallet prompt comes). */
export function useHasKey(): boolean {
  const { token, address } = useDaoChain()
  return Boolean(token && address && loadKey(token.chainId, getAddress(address)))
}
