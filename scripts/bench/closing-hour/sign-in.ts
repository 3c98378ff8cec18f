// Sign-in throughput at the closing hour's concurrency: SIGN_IN.accounts members each with a nonce and a
// signed message prepared untimed (testbed's prepareSignIn), then every verify POSTed at
// SIGN_IN.concurrency to one API instance on PostgreSQL; verifies per second against the sign-in floor.
// (The sign-in section measures latency at 50 and 200 on both databases; this is its one figure the issue
// budgets, measured in the same run as the floor.)
import { Agent } from 'node:http'
import { prepareSignIn, startApiProcess, stopApiProcess } from '@guildhall/api/testbed'
import { privateKeyToAccount } from 'viem/accounts'
import { benchVoterKey } from '../harness/chain.ts'
import { pool, post } from '../harness/http.ts'
import { cpuMs } from '../harness/processes.ts'
import type { ClosingHourResult } from '../harness/schema.ts'
import { latency, round3 } from '../harness/stats.ts'
import { SIGN_IN } from './plan.ts'

const DAO_NAME = 'Guildhall Bench DAO'

type PreparedSignIn = Awaited<ReturnType<typeof prepareSignIn>>

export async function measureSignIn(
  apiEnv: Record<string, string>,
  databaseUrl: string,
  /** The PostgreSQL server's CPU so far (its processes), when the bench started it. */
  postgresCpuMs: (() => number) | null,
  serverFile: string,
  log: (message: string) => void,
): Promise<ClosingHourResult['signIn']> {
  const server = await startApiProcess(
    {
      ...apiEnv,
      DATABASE_URL: databaseUrl,
      DAO_NAME,
      SIGN_IN: 'on',
      // Production allows 30 per address and minute; the bench is one address.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000000',
    },
    { built: serverFile },
  )
  const url = new URL(server.origin)
  const agent = new Agent({ keepAlive: true, maxSockets: SIGN_IN.concurrency })
  try {
    const prepare = async (from: number, count: number) => {
      const prepared: PreparedSignIn[] = []
      await pool(count, 20, async (i) => {
        const account = privateKeyToAccount(benchVoterKey('closing-hour-sign-in', from + i))
        prepared[i] = await prepareSignIn(server.origin, account, { daoName: DAO_NAME })
      })
      return prepared
    }
    const verify = (
      signIns: PreparedSignIn[],
      concurrency: number,
      onReply: (ok: boolean, ms: number) => void,
    ) =>
      pool(signIns.length, concurrency, async (i) => {
        const signIn = signIns[i] as PreparedSignIn
        const body = JSON.stringify({ message: signIn.message, signature: signIn.signature })
        const headers = { origin: url.origin, 'content-type': 'application/json', cookie: signIn.preauth }
        const reply = await post(
          agent,
          url,
          '/api/auth/verify',
          { 'user-agent': 'guildhall-bench', ...headers },
          body,
        )
        onReply(reply.status === 200, reply.ms)
      })
    log(`closing hour: sign-in: ${SIGN_IN.warmUp} warm-up sign-ins, then ${SIGN_IN.accounts} nonces signed`)
    await verify(await prepare(SIGN_IN.accounts, SIGN_IN.warmUp), SIGN_IN.concurrency, () => {})
    const signIns = await prepare(0, SIGN_IN.accounts)
    log(`closing hour: sign-in: ${SIGN_IN.accounts} verifies at ${SIGN_IN.concurrency} concurrent`)
    const samples: number[] = []
    let errors = 0
    const cpuBefore = await server.cpu()
    const databaseBefore = postgresCpuMs?.()
    const loadGeneratorBefore = cpuMs(process.cpuUsage())
    const started = performance.now()
    await verify(signIns, SIGN_IN.concurrency, (ok, ms) => {
      samples.push(ms)
      if (!ok) errors++
    })
    const seconds = (performance.now() - started) / 1000
    const apiMs = cpuMs(await server.cpu()) - cpuMs(cpuBefore)
    const databaseMs = postgresCpuMs && databaseBefore !== undefined ? postgresCpuMs() - databaseBefore : null
    const loadGeneratorMs = cpuMs(process.cpuUsage()) - loadGeneratorBefore
    return {
      accounts: SIGN_IN.accounts,
      concurrency: SIGN_IN.concurrency,
      verifiesPerSecond: Math.round((signIns.length - errors) / seconds),
      latencyMs: latency(samples),
      errors,
      apiCpuMsPerVerify: round3(apiMs / signIns.length),
      databaseCpuMsPerVerify: databaseMs === null ? null : round3(databaseMs / signIns.length),
      loadGeneratorCpuMsPerVerify: round3(loadGeneratorMs / signIns.length),
    }
  } finally {
    agent.destroy()
    await stopApiProcess(server, 'SIGTERM')
  }
}
