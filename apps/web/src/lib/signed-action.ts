import type { GovernanceDomain } from '@guildhall/core'
import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { Hex, TypedDataDefinition } from 'viem'
import { useSignTypedData } from 'wagmi'
import { useDaoChain } from './dao-chain.ts'
import { walletFailure } from './wallet-errors.ts'

/**
 * Where a signed action stands, the same for every one (a vote, a proposal, a statement): the wallet is
 * asked to sign, the signed message goes to the server, then it is done (the queries it changed read
 * again) or it failed, with the sentence the member reads.
 */
export type SignedActionStatus =
  | { step: 'idle' }
  | { step: 'signing' }
  | { step: 'submitting' }
  | { step: 'done' }
  | { step: 'failed'; error: string }

/** A message with its signature, as every signed endpoint takes it. */
type Signed<Message> = { message: Message; signature: Hex }

/** What one kind of signed action is: how it is signed, where it goes, what it changes. */
type SignedActionKind<Message, Answer> = {
  /** Its EIP-712 typed data under the DAO's domain (core's builder). */
  typedData: (domain: GovernanceDomain, message: Message) => TypedDataDefinition
  /** Posts the signed message (the feature's fetcher, through `lib/api.ts`). */
  submit: (signed: Signed<Message>) => Promise<Answer>
  /** The query keys the stored message changes: read again before the action is done. */
  changes: (signed: Signed<Message>, answer: Answer) => readonly QueryKey[]
  /** The sentence for a failure; by default the wallet's, "You cancelled the signature…" for a refusal. */
  failure?: (error: unknown) => string
}

const IDLE: SignedActionStatus = { step: 'idle' }
const signatureFailure = (error: unknown) => walletFailure(error, 'the signature')

/**
 * Signs a message with the connected wallet (wagmi's signTypedData), posts it, reads again the queries it
 * changed, and reports each step in one `status`. `run` resolves with the server's answer once done, or
 * undefined when it failed (the status says why) or another run is still under way.
 */
export function useSignedAction<Message, Answer>(kind: SignedActionKind<Message, Answer>) {
  const { domain } = useDaoChain()
  const { signTypedDataAsync } = useSignTypedData()
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<SignedActionStatus>(IDLE)
  // A second run while one is under way would ask the wallet twice and mix their steps.
  const running = useRef(false)

  async function run(message: Message): Promise<Answer | undefined> {
    if (running.current) return undefined
    running.current = true
    setStatus({ step: 'signing' })
    try {
      if (!domain) throw new Error('This DAO has no governance token configured.')
      const signature = await signTypedDataAsync(kind.typedData(domain, message))
      setStatus({ step: 'submitting' })
      const signed = { message, signature }
      const answer = await kind.submit(signed)
      await Promise.all(
        kind.changes(signed, answer).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      )
      setStatus({ step: 'done' })
      return answer
    } catch (error) {
      setStatus({ step: 'failed', error: (kind.failure ?? signatureFailure)(error) })
      return undefined
    } finally {
      running.current = false
    }
  }

  const busy = status.step === 'signing' || status.step === 'submitting'
  /** Back to idle, as before a first run (not while one is under way). */
  const reset = () => {
    if (!running.current) setStatus(IDLE)
  }
  return { status, busy, run, reset }
}
