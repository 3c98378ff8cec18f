// Votes that keep coming, for a test that does something to the server while it takes them (the backup under
// load, scripts/backup.test.ts): proposals by Ada, then Ada, Ben and Cleo vote on them round after round, each
// vote signed as it is sent, `inFlight` at a time, until stopped. A round is a re-vote on every proposal with a
// later timestamp, so each answered 201 moves a tally. Every answer is kept with the moment it came.
import { createPublicClient, type Hex, http } from 'viem'
import type { DemoChain } from '../src/demo/local-chain.ts'
import { demoDomain, signProposal, signVote } from './signers.ts'
import { type Outcome, post, voters } from './vote-burst.ts'

/** `status` 0: the connection was cut or the request timed out. */
type VoteAnswer = { id: Hex; status: number; at: number }

const statusOf = (outcome: Outcome) => ('status' in outcome ? outcome.status : 0)

export type VoteLoad = {
  /** Every answer so far, in the order they came. */
  answers: VoteAnswer[]
  /** The ids of the votes answered 201 so far. */
  accepted(): Hex[]
  /** Resolves once `count` votes in all have been answered 201 (rejects if the load has stopped). */
  acceptedAtLeast(count: number): Promise<void>
  /** Sends nothing more; resolves when every vote in flight has its answer. */
  stop(): Promise<VoteAnswer[]>
}

/** Creates `proposals` proposals on the server at `origin` and starts voting on them. */
export async function startVoteLoad(
  origin: string,
  { anvil, deployment }: DemoChain,
  { proposals: count, inFlight }: { proposals: number; inFlight: number },
): Promise<VoteLoad> {
  const domain = demoDomain(deployment)
  const now = Math.floor(Date.now() / 1000)
  const snapshot = Number(await createPublicClient({ transport: http(anvil.url) }).getBlockNumber()) - 1
  const [author] = voters as [(typeof voters)[number]]
  const ids: Hex[] = []
  for (let n = 0; n < count; n++) {
    const { message, signature, id } = await signProposal(author, domain, {
      snapshot,
      title: `Under load ${n}`,
      start: now - 3_600,
      end: now + 3_600,
      timestamp: now - 3_600,
    })
    const created = statusOf(await post(origin, '/api/proposals', { message, signature }))
    if (created !== 201) throw new Error(`proposal ${n} answered ${created}`)
    ids.push(id)
  }

  const answers: VoteAnswer[] = []
  const waiting: { count: number; done: () => void }[] = []
  let acceptedCount = 0
  let stopped = false
  let next = 0
  const perRound = count * voters.length
  const worker = async () => {
    while (!stopped) {
      const k = next++
      const round = Math.floor(k / perRound)
      const p = k % count
      const v = Math.floor(k / count) % voters.length
      const voter = voters[v] as (typeof voters)[number]
      // A later round is a later timestamp for the same voter and proposal: a re-vote that supersedes.
      const { message, signature, id } = await signVote(voter, domain, {
        proposal: ids[p] as Hex,
        choices: [1 + ((round + p + v) % 3)],
        timestamp: now - 1_800 + round,
      })
      const status = statusOf(await post(origin, `/api/proposals/${ids[p]}/votes`, { message, signature }))
      answers.push({ id, status, at: performance.now() })
      if (status === 201) acceptedCount++
      for (const wait of waiting.filter((w) => acceptedCount >= w.count)) {
        waiting.splice(waiting.indexOf(wait), 1)
        wait.done()
      }
    }
  }
  const workers = Promise.all(Array.from({ length: inFlight }, worker))
  return {
    answers,
    accepted: () => answers.filter((a) => a.status === 201).map((a) => a.id),
    acceptedAtLeast: (target) =>
      acceptedCount >= target
        ? Promise.resolve()
        : stopped
          ? Promise.reject(new Error('the load has stopped'))
          : new Promise((done) => waiting.push({ count: target, done })),
    async stop() {
      stopped = true
      await workers
      return answers
    },
  }
}
