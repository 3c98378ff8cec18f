// The discussion section's posting throughput: the demo members sign in over HTTP (Sign-In with Ethereum,
// as the web app does), then their comments, signed beforehand by their authorised keys, are POSTed with
// each author's session cookie at 50 concurrent, as the votes' ingest is measured: comments per second, and
// the API process's CPU per comment.
import type { Agent } from 'node:http'
import { type ApiProcess, signIn } from '@guildhall/api/testbed'
import type { Address } from 'viem'
import { JSON_HEADERS, pool, post } from '../harness/http.ts'
import { cpuMs } from '../harness/processes.ts'
import { latency, round1 } from '../harness/stats.ts'
import { member } from './messages.ts'
import { AUTHORS, type DatabaseRun, POSTS } from './plan.ts'

/** Each author's session cookie on `server` (name=value). */
export async function signInAuthors(server: ApiProcess, daoName: string): Promise<Map<Address, string>> {
  const cookies = new Map<Address, string>()
  for (const account of AUTHORS)
    cookies.set(member(account).address, await signIn(server.origin, member(account), daoName))
  return cookies
}

export async function postComments(
  agent: Agent,
  server: ApiProcess,
  cookies: Map<Address, string>,
  posts: { author: Address; body: string }[],
): Promise<DatabaseRun['posting']> {
  const url = new URL(server.origin)
  const samples: number[] = []
  let errors = 0
  let firstError: string | undefined
  const cpuBefore = await server.cpu()
  const started = performance.now()
  await pool(posts.length, POSTS.concurrency, async (i) => {
    const { author, body } = posts[i] as (typeof posts)[number]
    const headers = { ...JSON_HEADERS, origin: url.origin, cookie: cookies.get(author) ?? '' }
    try {
      const reply = await post(agent, url, '/api/comments', headers, body)
      samples.push(reply.ms)
      if (reply.status !== 201) {
        errors++
        firstError ??= `${reply.status} ${reply.body.slice(0, 200)}`
      }
    } catch (error) {
      errors++
      firstError ??= String(error)
    }
  })
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuMs(await server.cpu()) - cpuMs(cpuBefore)
  return {
    comments: posts.length,
    concurrency: POSTS.concurrency,
    commentsPerSecond: Math.round(posts.length / seconds),
    latencyMs: latency(samples),
    errors,
    cpuMsPerComment: round1(cpu / posts.length),
    ...(firstError ? { firstError } : {}),
  }
}
