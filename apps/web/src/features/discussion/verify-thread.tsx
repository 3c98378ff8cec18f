import type { ThreadRecountReport } from '@guildhall/core/recount'
import { useEffect, useRef, useState } from 'react'
import type { Hex } from 'viem'
import { Term } from '../../components/term.tsx'
import { useDaoChain } from '../../lib/dao-chain.ts'
import type { RecountMessage, RecountRequest } from '../proposals/recount-request.ts'

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

type State =
  | { step: 'idle' }
  | { step: 'running' }
  | { step: 'done'; report: ThreadRecountReport }
  | { step: 'error'; message: string }

/**
 * "Verify this thread": recounts the thread in the browser (the recount worker, ADR 052) from its bundle:
 * every message signed by a key its author authorised and logged, the shown state the one they make.
 */
export function VerifyThread({ threadId }: { threadId: Hex }) {
  const { rpcUrl } = useDaoChain()
  const [state, setState] = useState<State>({ step: 'idle' })
  const worker = useRef<Worker>(undefined)
  useEffect(() => () => worker.current?.terminate(), [])
  const bundleUrl = `/api/threads/${threadId}/bundle`

  function start() {
    if (!rpcUrl) return
    worker.current?.terminate()
    setState({ step: 'running' })
    const recounter = new Worker(new URL('../proposals/recount.worker.ts', import.meta.url), {
      type: 'module',
    })
    worker.current = recounter
    recounter.addEventListener('message', (event: MessageEvent<RecountMessage>) => {
      const data = event.data
      if (data.type === 'thread-done') setState({ step: 'done', report: data.report })
      else if (data.type === 'error') setState({ step: 'error', message: data.message })
      else return
      recounter.terminate()
    })
    const request: RecountRequest = { kind: 'thread', bundleUrl, rpcUrl }
    recounter.postMessage(request)
  }

  return (
    <div className="verify-thread" data-testid="verify-thread">
      <p className="actions">
        <button
          type="button"
          className="button"
          onClick={start}
          disabled={state.step === 'running' || !rpcUrl}
        >
          Verify this thread
        </button>
        <a href={bundleUrl} download={`thread-${threadId.slice(0, 10)}.json`}>
          Download the thread bundle
        </a>
      </p>
      {state.step === 'idle' ? (
        <p className="muted">
          Re-check every comment's signature, key and log entry in your browser (a{' '}
          <Term id="recount">recount</Term>), or download the <Term id="thread-bundle">thread bundle</Term> to
          recount it elsewhere.
        </p>
      ) : state.step === 'running' ? (
        <p role="status">Checking every message's signature, key and log entry…</p>
      ) : state.step === 'error' ? (
        <p role="alert">The recount could not run: {state.message}</p>
      ) : (
        <ThreadRecountResult report={state.report} />
      )}
    </div>
  )
}

function ThreadRecountResult({ report }: { report: ThreadRecountReport }) {
  return (
    <div data-testid="thread-recount-result">
      {report.matches ? (
        <p role="status">
          Verified: {plural(report.messagesChecked, 'message')}, all signed by authorised keys and in the log.
        </p>
      ) : (
        <div role="alert">
          <p>The thread differs from its signed messages:</p>
          <ul className="differences">
            {report.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      {report.takedowns.length > 0 ? (
        <div>
          <p>Taken down by the operator (the text is gone, its log entry stays):</p>
          <ul>
            {report.takedowns.map((takedown) => (
              <li key={takedown}>{takedown}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
