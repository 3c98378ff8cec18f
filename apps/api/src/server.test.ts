// startServer on a port another process holds: it fails with the error's code (a caller may choose
// another port and start again, as the e2e fixtures do) and leaves nothing running.
import { createServer, type Server } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { testSettings } from '../testbed/test-app.ts'
import { startServer } from './server.ts'

let holder: Server | undefined
afterEach(() => holder?.close())

test('error: a port already taken rejects with EADDRINUSE; the same settings start once it is free', async () => {
  holder = createServer()
  await new Promise<void>((resolve) => holder?.listen(0, '127.0.0.1', resolve))
  const address = holder.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const settings = testSettings({ origin: null, env: { PORT: String(port), HOST: '127.0.0.1' } })

  const error = await startServer(settings).then(
    () => undefined,
    (e: unknown) => e as NodeJS.ErrnoException,
  )
  expect(error?.code).toBe('EADDRINUSE')

  await new Promise<void>((resolve) => holder?.close(() => resolve()))
  holder = undefined
  const server = await startServer(settings)
  expect(server.url).toBe(`http://127.0.0.1:${port}`)
  await server.close()
  // Two in-memory databases migrated and two apps built: seconds, not the default 5.
}, 30_000)
