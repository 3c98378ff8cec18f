// The scale section's figures from one API server on a prepared database: reads (readers.ts), vote POSTs
// under readers and the ingest (ingest.ts), bundle exports and a log page (exports.ts), in that order.
import type { ApiProcess } from '@guildhall/api/testbed'
import type { ScaleChain } from '../harness/holders.ts'
import { JSON_HEADERS, phaseAgents } from '../harness/http.ts'
import { voteBurst } from '../harness/vote-burst.ts'
import { exportBundles } from './exports.ts'
import { HOLDERS, INGEST, SMALL_VOTES } from './plan.ts'
import { postWhileReading, readDetail, readVotesList } from './readers.ts'

export async function measure(
  server: ApiProcess,
  chain: ScaleChain,
  small: { proposal: { id: string } },
  deepCursor: string,
  bodies: { whileReading: string[]; ingest: string[] },
  log: (message: string) => void,
) {
  const url = new URL(server.origin)
  const phases = phaseAgents(200)
  const id = chain.proposal.id
  try {
    const detail = await readDetail(phases, url, id, log)
    const votesList = await readVotesList(phases, url, id, deepCursor, log)
    const whileReading = await postWhileReading(phases, url, id, bodies.whileReading, log)

    const agent = phases.next()
    log(`scale: vote ingest, ${INGEST.votes} votes at ${INGEST.concurrency} concurrent`)
    const headers = { ...JSON_HEADERS, origin: url.origin }
    const ingest = await voteBurst(
      agent,
      url,
      `/api/proposals/${id}/votes`,
      headers,
      bodies.ingest,
      INGEST.concurrency,
    )

    log('scale: bundle exports and a log page')
    const exported = await exportBundles(phases.next(), server, [
      [SMALL_VOTES, small.proposal.id],
      [HOLDERS, id],
    ])
    return {
      detail,
      votesList,
      postWhileReading: whileReading,
      ingest: { votes: bodies.ingest.length, concurrency: INGEST.concurrency, ...ingest },
      ...exported,
    }
  } finally {
    phases.close()
  }
}
