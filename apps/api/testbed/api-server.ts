// The API server alone in a child process, forked by api-process.ts: started and closed as `server.ts`
// runs it (SIGTERM closes it cleanly, exit 0), its settings in its environment (never on its command line,
// which `ps` shows to every local user). Over IPC it says 'ready' once it listens and answers 'cpu' with
// process.cpuUsage(): a bench reads the server's CPU time without the load generator's, and a fault test
// can SIGKILL the server and nothing else.

import { closeOnSignals, startServer } from '../src/server.ts'
import { parseEnv } from '../src/settings/env.ts'

export type ServerMessage = { type: 'ready'; url: string } | { type: 'cpu'; usage: NodeJS.CpuUsage }

const send = (message: ServerMessage) => process.send?.(message)

const server = await startServer(parseEnv(process.env))
closeOnSignals(server.close)
// The parent died or was stopped without stopping us: do not outlive it.
process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'))
process.on('message', (message) => {
  if (message === 'cpu') send({ type: 'cpu', usage: process.cpuUsage() })
})
send({ type: 'ready', url: server.url })
