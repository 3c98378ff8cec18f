import type { ProposalDetail } from '@guildhall/core'
import type { RecountProgress, RecountReport } from '@guildhall/core/recount'
import { useEffect, useRef, useState } from 'react'
import { Card } from '../../components/card.tsx'
import { Term } from '../../components/term.tsx'
import { useDaoChain } from '../../lib/dao-chain.ts'
import type { RecountMessage, RecountRequest } from '../../lib/recount-request.ts'

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

const roundsAgree = (rounds: number) => (rounds === 1 ? 'its one round agrees' : `all ${rounds} rounds agree`)

const STEP_LABELS: Record<RecountProgress['step'], string> = {
  signatures: 'Checking signatures',
  'voting power': 'Reading voting power from the chain',
  tally: 'Counting',
}

/** Recounts the result in the browser (a worker), or offers the bundle to recount elsewhere. */
export function Verify({ proposal }: { proposal: ProposalDetail }) {
  const dao = useDaoChain()
  const [progress, setProgress] = useState<RecountProgress>()
  const [report, setReport] = useState<RecountReport>()
  const [error, setError] = useState<string>()
  const worker = useRef<Worker>(undefined)
  useEffect(() => () => worker.current?.terminate(), [])

  function start() {
    if (!dao.rpcUrl) return
    worker.current?.terminate()
    setReport(undefined)
    setError(undefined)
    const recounter = new Worker(new URL('../../lib/recount.worker.ts', import.meta.url), { type: 'module' })
    worker.current = recounter
    recounter.addEventListener('message', (event: MessageEvent<RecountMessage>) => {
      const data = event.data
      if (data.type === 'progress') setProgress(data.progress)
      else {
        if (data.type === 'done') setReport(data.report)
        else if (data.type === 'error') setError(`The recount could not run: ${data.message}`)
        setProgress(undefined)
        recounter.terminate()
      }
    })
    const request: RecountRequest = {
      kind: 'result',
      bundleUrl: `/api/proposals/${proposal.id}/bundle`,
      rpcUrl: dao.rpcUrl,
    }
    recounter.postMessage(request)
  }

  return (
    <Card title="Verify this result" testId="verify">
      <p className="muted">
        Re-check every signature and recompute every voter's power from the chain, in your browser (a{' '}
        <Term id="recount">recount</Term>), or download the <Term id="result-bundle">result bundle</Term> to
        recount it elsewhere.
      </p>
      <p className="actions">
        <button type="button" className="button" onClick={start} disabled={Boolean(progress)}>
          Verify this result
        </button>
        <a
          href={`/api/proposals/${proposal.id}/bundle`}
          download={`proposal-${proposal.id.slice(0, 10)}.json`}
        >
          Download the result bundle
        </a>
      </p>
      {progress ? (
        <p role="status">
          {STEP_LABELS[progress.step]}: {progress.done} of {progress.total}…
        </p>
      ) : null}
      {report?.matches ? (
        <p role="status" data-testid="recount-result">
          The result matches: {plural(report.votesChecked, 'vote signature')} checked,{' '}
          {plural(report.votesCounted, 'vote')} counted
          {report.executionsChecked > 0
            ? `, ${plural(report.executionsChecked, 'Safe transaction')} of its execution checked`
            : ''}
          {/* A ranked-choice count: the recount compared every round with the published ones. */}
          {report.tally.rounds ? `; ${roundsAgree(report.tally.rounds.length)}` : ''}.
        </p>
      ) : report ? (
        <div role="alert" data-testid="recount-result">
          <p>The result differs from the published one:</p>
          <ul className="differences">
            {report.differences.map((difference) => (
              <li key={difference}>{difference}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
    </Card>
  )
}
