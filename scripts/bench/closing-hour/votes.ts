// The closing hour's votes: each holder's first vote on the proposal (harness/holder-votes.ts's choice and
// reason), dated at the start of today (UTC). The API refuses a message signed more than 6 days ago, and
// the holders' cached votes are dated at the proposal's start, weeks back; a vote dated today stays good
// all day, so its signatures are signed once a day and kept beside the holders' in the section's cache.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { signGovernanceMessage } from '@guildhall/core'
import type { Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { scaleVoteMessage, scaleVoterKey } from '../harness/holder-votes.ts'
import type { ScaleChain } from '../harness/holders.ts'
import type { SeedVote } from '../harness/vote-seed.ts'

const DAY = 86_400

export async function signTodaysVotes(
  chain: ScaleChain,
  cacheDir: string,
  log: (message: string) => void,
): Promise<{ votes: SeedVote[]; seconds: number }> {
  const timestamp = Math.floor(Date.now() / 1000 / DAY) * DAY
  const count = chain.votes.length
  const cachePath = join(cacheDir, `votes-${chain.proposal.id}-${timestamp}-${count}.json`)
  const started = performance.now()
  let signatures: { id: Hex; signature: Hex }[]
  if (existsSync(cachePath)) {
    signatures = JSON.parse(readFileSync(cachePath, 'utf8'))
  } else {
    log(
      `closing hour: signing ${count.toLocaleString('en-US')} votes dated today (once a day; cached in ${cachePath})`,
    )
    signatures = []
    for (let i = 0; i < count; i++) {
      const account = privateKeyToAccount(scaleVoterKey(i))
      const message = {
        ...scaleVoteMessage(i, account.address, chain.proposal.id, chain.proposal.message.start),
        timestamp,
      }
      const { id, signature } = await signGovernanceMessage(account, chain.domain, { type: 'Vote', message })
      signatures.push({ id, signature })
    }
    writeFileSync(cachePath, JSON.stringify(signatures))
  }
  const votes = chain.votes.map((vote, i) => {
    const signed = signatures[i] as { id: Hex; signature: Hex }
    return { ...vote, id: signed.id, message: { ...vote.message, timestamp }, signature: signed.signature }
  })
  return { votes, seconds: (performance.now() - started) / 1000 }
}
