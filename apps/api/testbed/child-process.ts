// A child process of the tests, the bench or `npm run cluster` (an API server, HAProxy): the end of what it
// wrote, for the error that says why it failed, and a stop that waits until it is gone.
import type { ChildProcess } from 'node:child_process'

/** The last characters a child wrote that are kept: where it says why it failed. */
const OUTPUT_TAIL = 4000
/** A child still running this long after its signal is SIGKILLed. */
const STOP_TIMEOUT_MS = 10_000

type WatchedChild = {
  /** Resolves when the child has exited, or failed to start. */
  exited: Promise<void>
  /** The last few thousand characters of its stdout and stderr, and the error it failed to start with. */
  output: () => string
}

/**
 * Keeps the end of what `child` writes (spawned with piped stdout and stderr) and tells when it is gone;
 * `onLine` gets each whole line as it comes (stdout's and stderr's apart, so their lines never mix).
 */
export function watchChild(child: ChildProcess, onLine?: (line: string) => void): WatchedChild {
  let output = ''
  const remember = (text: Buffer | string) => {
    output = (output + text.toString()).slice(-OUTPUT_TAIL)
  }
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue
    stream.setEncoding('utf8')
    stream.on('data', remember)
    if (onLine) {
      let partial = ''
      stream.on('data', (text: string) => {
        const lines = (partial + text).split('\n')
        partial = lines.pop() ?? ''
        for (const line of lines) onLine(line)
      })
      stream.on('end', () => {
        if (partial) onLine(partial)
      })
    }
  }
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done())
    child.once('error', (error) => {
      remember(String(error))
      done()
    })
  })
  return { exited, output: () => output }
}

/** Signals the child unless it has exited and waits until it has, escalating to SIGKILL if it hangs. */
export async function stopChild(
  child: ChildProcess,
  exited: Promise<void>,
  signal: 'SIGTERM' | 'SIGKILL',
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  const escalate = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
  await exited
  clearTimeout(escalate)
}
