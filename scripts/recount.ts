// npm run recount -- <bundle.json | proposal URL> --rpc <url>
// Recounts a proposal from its export bundle against any RPC of the DAO chain (packages/core/src/recount.ts):
// re-verifies every signature, recomputes voting power from the token, re-tallies, and prints every
// difference. Exit code: 0 the result matches, 1 it differs, 2 the recount could not run.
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { formatIssues } from '@guildhall/core'
import { type RecountProgress, recount, resultBundleSchema } from '@guildhall/core/recount'
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

async function loadBundle(source: string): Promise<unknown> {
  const url = bundleUrl(source)
  if (!url) return JSON.parse(await readFile(source, 'utf8'))
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`)
  return response.json()
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { rpc: { type: 'string' } } })
  const [source] = positionals
  if (!source || !values.rpc || positionals.length > 1) {
    console.error(USAGE)
    return 2
  }
  const parsed = resultBundleSchema.safeParse(await loadBundle(source))
  if (!parsed.success) {
    console.error(`This is not a Guildhall result bundle:\n${formatIssues(parsed.error)}`)
    return 2
  }
  const bundle = parsed.data
  console.log(`Recounting "${bundle.proposal.message.title}" (${bundle.proposal.id})`)
  console.log(
    `${bundle.votes.length} votes, snapshot block ${bundle.snapshot}, chain ${bundle.domain.chainId}`,
  )
  const client = createPublicClient({ transport: http(values.rpc, { timeout: 30_000, retryCount: 2 }) })
  let last = ''
  const report = await recount(bundle, client, (progress: RecountProgress) => {
    const line = `  ${progress.step}: ${progress.done}/${progress.total}`
    // One line per step and per tenth of it, so a long recount shows it is moving without flooding.
    const tenth = Math.max(1, Math.floor(progress.total / 10))
    if (progress.done === progress.total || progress.done % tenth === 0) {
      if (line !== last) console.log(line)
      last = line
    }
  })
  const { tally } = report
  console.log('')
  bundle.proposal.message.choices.forEach((choice, index) => {
    console.log(`  ${choice}: ${tally.perChoice[index]}`)
  })
  console.log(
    `  voters: ${tally.voters}, quorum ${tally.quorumReached ? 'reached' : 'not reached'}, outcome as counted: ${tally.outcome}`,
  )
  console.log('')
  if (report.matches) {
    console.log(
      `The result matches: ${report.votesChecked} signatures checked, ${report.votesCounted} votes counted.`,
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
