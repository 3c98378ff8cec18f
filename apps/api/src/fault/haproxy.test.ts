// The shipped HAProxy configuration (haproxy.ts, the same rules as docs/deploy.md's) in front of two plain
// HTTP servers standing in for API instances: one answers, the other dies on every request it is sent (it
// closes the connection without a byte of answer, as an instance SIGKILLed mid-request does). A read is
// sent again to the other instance by the proxy; a POST never is: the client alone knows it may resend.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { getFreePort } from '@guildhall/devchain/anvil'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type Haproxy, startHaproxy } from '../../testbed/haproxy.ts'

type Instance = { server: Server; address: string; received: string[] }

/** A stand-in instance on a free port: /api/health answers 200; every other request is `handle`d. */
async function instance(handle: (request: IncomingMessage, response: ServerResponse) => void) {
  const received: string[] = []
  const server = createServer((request, response) => {
    if (request.url === '/api/health') return void response.end('{"status":"ok"}')
    let body = ''
    request.on('data', (chunk) => {
      body += chunk
    })
    request.on('end', () => {
      received.push(`${request.method} ${request.url} ${body}`)
      handle(request, response)
    })
  })
  const port = await getFreePort()
  await new Promise<void>((listening) => server.listen(port, '127.0.0.1', listening))
  return { server, address: `127.0.0.1:${port}`, received }
}

let answering: Instance
let dying: Instance
let proxy: Haproxy

beforeAll(async () => {
  answering = await instance((_request, response) => {
    response.setHeader('content-type', 'application/json')
    response.end('{"ok":true}')
  })
  dying = await instance((request) => request.socket.destroy())
  // api1 dies on every request, api2 answers.
  proxy = await startHaproxy({
    port: await getFreePort(),
    instances: [dying.address, answering.address],
    balance: 'roundrobin',
  })
})

afterAll(async () => {
  await proxy?.stop()
  for (const { server } of [answering, dying]) server?.closeAllConnections()
  await Promise.all([answering, dying].map(({ server }) => new Promise((closed) => server?.close(closed))))
})

test('behavior: HAProxy, an instance dying mid-request: each GET is sent again to another instance and answered 200; a POST is never resent (a 502 or a cut connection: the client decides)', async () => {
  const gets = []
  for (let i = 0; i < 6; i++) {
    const response = await fetch(`${proxy.url}/api/read?i=${i}`)
    gets.push({ status: response.status, servedBy: response.headers.get('x-served-by') })
  }
  expect(gets).toEqual(Array.from({ length: 6 }, () => ({ status: 200, servedBy: 'api2' })))
  // Round robin sent some of them to the dying instance first: those were resent, not lost.
  const getsToDying = dying.received.filter((line) => line.startsWith('GET '))
  expect(getsToDying.length).toBeGreaterThan(0)
  expect(answering.received.filter((line) => line.startsWith('GET '))).toHaveLength(6)

  // A POST the dying instance took ends as the proxy's 502, or as a cut connection (HAProxy closes the
  // client's connection when the instance closed one it had reused): the client cannot tell whether it
  // was carried out.
  const posts = []
  for (let i = 0; i < 6; i++) {
    const outcome = await fetch(`${proxy.url}/api/write`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ i }),
    }).then(
      (response) => response.status,
      () => 'cut' as const,
    )
    posts.push({ i, outcome })
  }
  const postsTo = (target: Instance) =>
    target.received
      .filter((line) => line.startsWith('POST '))
      .map((line) => JSON.parse(line.split(' ')[2] ?? ''))
  // Each POST reached exactly one instance, once: the ones the dying instance took got no answer.
  const lost = posts.filter((post) => post.outcome !== 200).map(({ i }) => ({ i }))
  expect(lost.length).toBeGreaterThan(0)
  expect(
    posts.filter((post) => post.outcome !== 200).every((post) => [502, 'cut'].includes(post.outcome)),
  ).toBe(true)
  expect(postsTo(dying)).toEqual(lost)
  expect(postsTo(answering)).toEqual(posts.filter((post) => post.outcome === 200).map(({ i }) => ({ i })))
  expect(lost.length + postsTo(answering).length).toBe(posts.length)
})
