// For the tests of the signature pool (platform/signatures): the real worker, except that a task holding a
// signature whose first bytes are 0xdeaddead ends its thread mid-check, as a crash would.
import recover from '../src/platform/signatures/recover-worker.mjs'

export default function crashOrRecover(task) {
  if (task.checks.some(({ signature }) => signature.startsWith('0xdeaddead'))) process.exit(1)
  return recover(task)
}
