// npm run recount -- <bundle.json | proposal URL> --rpc <url>
// Recounts a proposal from its export bundle against any RPC of the DAO chain (packages/core/src/recount.ts):
// re-verifies every signature, recomputes voting power from the token, re-tallies, and prints every
// difference. Exit code: 0 the result matches, 1 it differs, 2 the recount could not run.
import { createReadStream } from 'node:fs'
import { parseArgs } from 'node:util'
import {
  BundleFormatError,
  type BundleSource,
  type RecountProgress,
  type RecountReport,
  recount,
  responseChunks,
} from '@guildhall/core/recount'
import { createPublicClient, http } from 'viem'

const USAGE = 'Usage: npm run recount -- <bundle.json | https://your-dao.example/proposals/0x…> --rpc <url>'

/** A proposal page's URL → its bundle's API URL; anything else is read as a file. */
function bundleUrl(source: string): string | undefined {
  if (!/^https?:\/\//.test(source)) return undefined
  const url = new URL(source)
  const id = /\/proposals\/(0x[0-9a-f]{64})/.exec(url.pathname)?.[1]
  if (!id) throw new Error(`${source} is not a proposal's address (…/proposals/0x + 64 hex digits).`)
  return `${url.origin}/api/proposals/${id}/bundle`
}

/** The bundle's bytes as they arrive, from the file or the server: the recount never holds all of it. */
async function bundleSource(source: string): Promise<BundleSource> {
  const url = bundleUrl(source)
  if (!url) return createReadStream(source)
  const response = await fetch(url)
  if (!response.ok || !response.body)
    throw new Error(`${url} answered ${response.status}: ${await response.text()}`)
  return responseChunks(response.body)
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { rpc: { type: 'string' } } })
  const [source] = positionals
  if (!source || !values.rpc || positionals.length > 1) {
    console.error(USAGE)
    return 2
  }
  console.log(`Recounting ${source} against ${values.rpc}`)
  const client = createPublicClient({ transport: http(values.rpc, { timeout: 30_000, retryCount: 2 }) })
  let last = ''
  let report: RecountReport
  try {
    report = await recount(await bundleSource(source), client, (progress: RecountProgress) => {
      const line = `  ${progress.step}: ${progress.done}/${progress.total}`
      // One line per step and per tenth of it, so a long recount shows it is moving without flooding.
      const tenth = Math.max(1, Math.floor(progress.total / 10))
      if (progress.done === progress.total || progress.done % tenth === 0) {
        if (line !== last) console.log(line)
        last = line
      }
    })
  } catch (error) {
    if (!(error instanceof BundleFormatError)) throw error
    console.error(`This is not a Guildhall result bundle:\n${error.message}`)
    return 2
  }
  const { message } = report.proposal
  console.log('')
  console.log(`"${message.title}" (${report.proposal.id}), snapshot block ${message.snapshot}`)
  const { tally } = report
  console.log('')
  message.choices.forEach((choice, index) => {
    console.log(`  ${choice}: ${tally.perChoice[index]}`)
  })
  console.log(
    `  voters: ${tally.voters}, quorum ${tally.quorumReached ? 'reached' : 'not reached'}, outcome as counted: ${tally.outcome}`,
  )
  console.log('')
  if (report.matches) {
    console.log(
      `The result matches: ${report.votesChecked} signatures checked, ${report.votesCounted} votes counted${report.executionsChecked > 0 ? `, ${report.executionsChecked} Safe transactions of its execution checked` : ''}.`,
    )
    return 0
  }
  console.log(`The result DIFFERS (${report.differences.length}):`)
  for (const difference of report.differences) console.log(`  - ${difference}`)
  return 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(`The recount could not run: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 2
  },
)
