// The API server for the sign-in bench, alone in a child process (forked by sign-in.ts) so that its CPU
// time can be read without the load generator's. Settings come as parseEnv input (JSON) in argv[2];
// over IPC it answers 'cpu' with process.cpuUsage() and 'close' by closing and exiting.
import { parseEnv } from '../../apps/api/src/env.ts'
import { startServer } from '../../apps/api/src/server.ts'

export type ServerMessage = { type: 'ready'; url: string } | { type: 'cpu'; usage: NodeJS.CpuUsage }

const send = (message: ServerMessage) => process.send?.(message)

const server = await startServer(parseEnv(JSON.parse(process.argv[2] ?? '{}')))
let closing: Promise<void> | undefined
const close = () => {
  closing ??= server.close().finally(() => process.exit(0))
  return closing
}
// The bench died or was stopped without asking: do not outlive it.
process.on('disconnect', close)
process.on('message', (message) => {
  if (message === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() })
  else if (message === 'close') void close()
})
send({ type: 'ready', url: server.url })
