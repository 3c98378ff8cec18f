import type { SignedActionStatus } from '../lib/signed-action.ts'

/** What a signed action's page says at each step under way or done; a failure says its own sentence. */
type SignedActionWords = Record<'signing' | 'submitting' | 'done', string>

/** A signed action's progress in a sentence (a status), or its failure (an alert); nothing before it starts. */
export function SignedActionStatusLine({
  status,
  words,
}: {
  status: SignedActionStatus
  words: SignedActionWords
}) {
  if (status.step === 'idle') return null
  return status.step === 'failed' ? (
    <p role="alert" className="error">
      {status.error}
    </p>
  ) : (
    <p role="status">{words[status.step]}</p>
  )
}
